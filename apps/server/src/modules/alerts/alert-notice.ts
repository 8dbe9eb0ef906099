import type { SearchCounts } from '@kb/contracts/search';

/**
 * The words of an alert: the notification's title and body, and the e-mail. Kept apart from the
 * check so that the in-app text and the e-mail cannot say different things.
 */

export interface AlertFacts {
  criteriaName: string;
  counts: SearchCounts;
  loadLabel: string;
  loadFinishedAt: string | null;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "New rows": activities, else structures the search matches directly (both are what an alert counts). */
export function hasNewRows(counts: SearchCounts): boolean {
  return counts.actidscount > 0 || counts.stridscount > 0;
}

/** The app path of an alert notification: the web opens its new rows from there. */
export const alertPath = (notificationId: number) => `/notifications/${notificationId}`;

export function alertTitle(facts: AlertFacts): string {
  const { counts } = facts;
  const what =
    counts.actidscount > 0
      ? plural(counts.actidscount, 'new activity', 'new activities')
      : plural(counts.stridscount, 'new structure', 'new structures');
  // Names are the user's own text of up to 200 characters; a title stays one line.
  const name = facts.criteriaName.length > 80 ? `${facts.criteriaName.slice(0, 79)}…` : facts.criteriaName;
  return `${what} for “${name}”`;
}

export function alertBody(facts: AlertFacts): string {
  const { counts } = facts;
  const parts = [
    plural(counts.actidscount, 'activity', 'activities'),
    plural(counts.stridscount, 'structure', 'structures'),
    plural(counts.assayidscount, 'assay', 'assays'),
    plural(counts.refidscount, 'reference', 'references'),
  ];
  const when = facts.loadFinishedAt ? ` (${facts.loadFinishedAt.slice(0, 10)})` : '';
  return `${facts.loadLabel}${when} brought new rows matching your saved search “${facts.criteriaName}”: ${parts.join(', ')}.`;
}

/** The e-mail: the same words and the same link, as an absolute URL. */
export function alertMail(facts: AlertFacts, url: string): { subject: string; body: string } {
  return {
    subject: `KB Search alert: ${alertTitle(facts)}`,
    body: [
      alertBody(facts),
      '',
      `Open the new rows: ${url}`,
      '',
      'You get this e-mail because "alert me" is on for this saved search and database update e-mails are on in your notification settings (Dashboard → Notification settings).',
    ].join('\n'),
  };
}
