import { Anchor, Stack } from '@mantine/core';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { InfoSection } from './info-section.tsx';

export function PoliciesPage() {
  return (
    <Stack gap="lg" maw={880}>
      <PageHeader title="Policies" description="Acceptable use, data licensing, privacy, and how sessions are secured." />

      <InfoSection id="acceptable-use" title="Acceptable use">
        <p>
          Your account is personal. Do not share your password or let others use your session. Use the knowledge base for your own research
          and that of your organisation within the terms of your subscription. Automated bulk harvesting of results, circumventing download
          credits or the activity limit per search, and probing the service for weaknesses are not permitted. Repeated failed logins are
          rate-limited.
        </p>
      </InfoSection>

      <InfoSection id="licensing" title="Data licensing">
        <p>
          Parts of the knowledge base come from ChEMBL. ChEMBL data is from{' '}
          <Anchor href="http://www.ebi.ac.uk/chembl" target="_blank" rel="noreferrer">
            http://www.ebi.ac.uk/chembl
          </Anchor>
          , licensed{' '}
          <Anchor href="https://creativecommons.org/licenses/by-sa/3.0/" target="_blank" rel="noreferrer">
            CC BY-SA 3.0
          </Anchor>
          . When you publish or share material derived from it, attribute ChEMBL and share your adaptations under the same licence. Exports
          keep the source references of each record so that you can cite them. Curated content added on top of public sources is licensed to
          you under your subscription agreement.
        </p>
      </InfoSection>

      <InfoSection id="privacy" title="Privacy">
        <p>
          We store what is needed to run your account: your name, e-mail address, organisation and subscriptions. For security and billing
          we log every login attempt (date, logout date, duration, success and IP address), which you can see in your login history, and
          every export and download with the credits it used, which you can see in your download history. Administrators of your
          subscription can see login activity and credit use. We do not sell personal data. Ask your account manager to correct or delete
          your data.
        </p>
        <p>
          In your browser the application keeps your session tokens and e-mail address in local and session storage so that tabs share your
          login. Logging out clears them together with the application&apos;s cookies.
        </p>
      </InfoSection>

      <InfoSection id="security" title="Sessions and security">
        <p>
          Passwords are stored only as argon2id hashes and are never shown or e-mailed. Every login opens a server-side session; logging
          out, changing your password or closing your other sessions ends them on the server immediately. After 30 minutes without activity
          a session ends and you are logged out. Access tokens are short-lived and renewed automatically while you work.
        </p>
      </InfoSection>
    </Stack>
  );
}
