import { Anchor, Code, Divider, List, Stack, Table } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { InfoSection } from './info-section.tsx';

const ROLE_ROWS: readonly [string, string][] = [
  ['Full user', 'Search, results, export, downloads, leaflets and the dashboard.'],
  ['Evaluation user', 'Search, results, leaflets and the dashboard. No export or downloads.'],
  ['Download evaluator', 'Everything a full user may open, for an evaluation period.'],
  ['Flat-file only', 'The dashboard: flat-file datasets and requests, history, settings and profile.'],
  ['Partial user', 'The landing page, dynamic query and client dashboard.'],
  ['KB admin', 'Admin dashboard, subscriptions, trackers and the dashboard.'],
  ['Flat-file admin', 'Trackers and the dashboard.'],
  ['Super admin', 'The super-admin system overview.'],
];

export function UserManualPage() {
  return (
    <Stack gap="lg" maw={880}>
      <PageHeader title="User manual" description="How to log in, search the knowledge base, read and filter results, export data and manage your account." />
      <List size="sm" spacing={2}>
        {[
          ['logging-in', 'Logging in and sessions'],
          ['roles', 'Roles and what each may open'],
          ['searching', 'Searching'],
          ['structure', 'Structure search and property filters'],
          ['results', 'Results tabs'],
          ['charts', 'Charts as filters'],
          ['export', 'Exports and download credits'],
          ['dashboard', 'Your dashboard'],
        ].map(([id, label]) => (
          <List.Item key={id}>
            <Anchor href={`#${id}`}>{label}</Anchor>
          </List.Item>
        ))}
      </List>
      <Divider />

      <InfoSection id="logging-in" title="Logging in and sessions">
        <p>
          Log in on the <Anchor component={Link} to="/login">login page</Anchor> with the e-mail address and password of your subscription. New users
          receive an e-mail with a link to set their password; if you forgot yours, use{' '}
          <Anchor component={Link} to="/forgot-password">Forgot password</Anchor>. After several failed attempts the login pauses and tells you how long
          to wait.
        </p>
        <p>
          After 30 minutes without mouse, keyboard, touch or scroll activity you are logged out automatically, and your searches are closed. Your
          session stays valid across tabs of the same browser. Use <strong>Log out</strong> in the header when you leave a shared computer; it clears
          everything the application stored in the browser.
        </p>
      </InfoSection>

      <InfoSection id="roles" title="Roles and what each may open">
        <p>
          Your subscription gives you one or more roles. If you hold several, choose the one to work with in the role switcher of the header; the
          menus show only the pages your current role may open.
        </p>
        <Table withTableBorder mt="xs">
          <Table.Tbody>
            {ROLE_ROWS.map(([role, pages]) => (
              <Table.Tr key={role}>
                <Table.Td fw={600} w={180}>
                  {role}
                </Table.Td>
                <Table.Td>{pages}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </InfoSection>

      <InfoSection id="searching" title="Searching">
        <p>
          A search is a list of rows. Each row picks an option from one of three groupings of the search builder — <strong>Input</strong> (structure,
          target/enzyme/protein, bibliography, company), <strong>Selection</strong> (degrader type, clinical phase or status, source, indication,
          activity types, assay, activity mechanism, compound categories) and <strong>Tree View</strong> (target, indication, pharmacokinetics,
          toxicity, taxonomy, pathways, clinical phase, assay method name, bibliography, endpoint).
        </p>
        <p>
          Rows are combined with <Code>AND</Code> (the default), <Code>OR</Code> or <Code>NOT</Code>. Inside one row, several values (for example
          several targets) are combined with <Code>|</Code>, meaning “any of”. You can upload a text file of search terms: the application reports terms
          it does not recognise, and you can download them to correct them. Before opening results you see counts of matching structures, activities,
          assays, references and clinical compounds. A search returning more than 750,000 activities must be refined.
        </p>
      </InfoSection>

      <InfoSection id="structure" title="Structure search and property filters">
        <p>
          Find structures by <strong>name</strong>, by <strong>SMILES</strong> or <strong>SMARTS</strong> (substructure search), by{' '}
          <strong>InChIKey</strong>, by drawing a structure, or by similarity to a query structure. Name search is exact by default; SMILES and InChIKey
          search substructures, with salts removed.
        </p>
        <p>Property filters restrict structures to ranges of molecular weight, logP, rotatable bonds, polar surface area, pKa, logD and solubility. Two presets fill them for you:</p>
        <Table withTableBorder mt="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Preset</Table.Th>
              <Table.Th>Molecular weight</Table.Th>
              <Table.Th>H-bond donors</Table.Th>
              <Table.Th>H-bond acceptors</Table.Th>
              <Table.Th>Rotatable bonds</Table.Th>
              <Table.Th>logP</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td fw={600}>Rule of 5</Table.Td>
              <Table.Td>0–500</Table.Td>
              <Table.Td>0–5</Table.Td>
              <Table.Td>0–10</Table.Td>
              <Table.Td>—</Table.Td>
              <Table.Td>0–5</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td fw={600}>Rule of 3</Table.Td>
              <Table.Td>0–300</Table.Td>
              <Table.Td>0–3</Table.Td>
              <Table.Td>0–3</Table.Td>
              <Table.Td>3–3</Table.Td>
              <Table.Td>0–3</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </InfoSection>

      <InfoSection id="results" title="Results tabs">
        <p>Results open in five tabs, each paged (10 rows by default) and sortable, with a column chooser:</p>
        <List size="sm" spacing={2}>
          <List.Item>
            <strong>Structures</strong> — one row per structure with its computed properties.
          </List.Item>
          <List.Item>
            <strong>Activities</strong> — measured values against targets, with standardised type, unit and the value in µM.
          </List.Item>
          <List.Item>
            <strong>Assay</strong> — the experimental conditions of each assay.
          </List.Item>
          <List.Item>
            <strong>Development Compounds</strong> — clinical phase, status, indications and mechanism.
          </List.Item>
          <List.Item>
            <strong>Documents</strong> — the articles and patents behind the data.
          </List.Item>
        </List>
        <p>
          Select rows to start a new search from them; the new results open under “new search results”. Sorting by similarity to a structure reveals a
          similarity column. Open a compound or reference leaflet from any row to see everything about it on one page.
        </p>
        <p>
          <strong>Compact</strong> rows (the default) fit at least 15 rows on a laptop screen; hover a drawing to enlarge it, or choose{' '}
          <strong>Comfortable</strong> for large drawings. The tick box, the ids and the structure stay on the left while you scroll sideways. After a
          similarity search every tab shows the similarity score and lists the most similar first; after a substructure search the drawings show the
          match in orange, in the grids and in the compound leaflet.
        </p>
      </InfoSection>

      <InfoSection id="charts" title="Charts as filters">
        <p>
          Beside the results, charts summarise the current result set (by default: reference, bibliography, year and assay type). Click bars or tree
          nodes to include or exclude values; every tab updates to the filtered set. Charts can be sorted A–Z, Z–A, by least or most results, and you
          can choose which charts to show. Reset all filters to return to the full result.
        </p>
      </InfoSection>

      <InfoSection id="export" title="Exports and download credits">
        <p>
          Export a tab as CSV, Excel or SDF. Each exported record uses download credits from your balance; the export shows how many it needs before
          you start. Prepared files are listed under Downloads. When 100 or fewer downloads remain, or your subscription ends in less than 7 days, a
          banner tells you so.
        </p>
      </InfoSection>

      <InfoSection id="dashboard" title="Your dashboard">
        <p>
          The <Anchor component={Link} to="/dashboard">dashboard</Anchor> gathers your flat-file datasets and requests for data, your login history
          (with successful and failed attempts), your download history, your notification settings and your profile with your subscriptions, end
          dates, download balance and flat-file access. From there you can change your password and close your sessions on other devices.
        </p>
      </InfoSection>
    </Stack>
  );
}
