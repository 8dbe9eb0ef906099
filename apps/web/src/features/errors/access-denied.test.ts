import { describe, expect, it } from 'vitest';
import { findWebRoute } from '../../app/route-match.ts';
import { adminRedirectNotice, deniedText } from './access-denied.ts';

const route = (path: string) => {
  const found = findWebRoute(path);
  if (!found) throw new Error(`no route ${path}`);
  return found;
};

describe('access-denied wording', () => {
  it('names the page and says it is not part of the subscription', () => {
    const text = deniedText(route('/sarview'), 'EVALUATE_USER', ['EVALUATE_USER']);
    expect(text.headline).toBe('SAR view (/sarview) is not part of your subscription.');
    expect(text.detail).toBe(
      'Your current role, Evaluation user, does not include it. It comes with Full user or Download evaluator subscriptions; ask your administrator to extend yours.',
    );
  });

  it('suggests switching role when another held role includes the page', () => {
    const text = deniedText(route('/export'), 'EVALUATE_USER', ['EVALUATE_USER', 'FULL_USER']);
    expect(text.detail).toBe('Your Full user subscription includes it: switch to that role in the header to open it.');
  });

  it('speaks of "this page" when no page is named', () => {
    expect(deniedText(null, 'FULL_USER', ['FULL_USER']).headline).toBe('This page is not part of your subscription.');
  });

  it('tells an administrator why the dashboard opened instead of an admin page', () => {
    expect(adminRedirectNotice(route('/admin/subscriptions'), 'FLAT_FILE_ADMIN')).toBe(
      'Subscriptions (/admin/subscriptions) is only open to the KB admin role, so as Flat-file admin you were brought to your dashboard instead.',
    );
  });
});
