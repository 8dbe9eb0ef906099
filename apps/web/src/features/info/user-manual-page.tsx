import { Anchor, Code, Divider, List, Stack, Table } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../app/ui/page-header.tsx';
import { InfoSection } from './info-section.tsx';

const ROLE_ROWS: readonly [string, string][] = [
  ['Full user', 'Search, results, export, downloads, leaflets and the dashboard.'],
  ['Evaluation user', 'Search, results, leaflets and the dashboard. No export or downloads.'],
  ['Download evaluator', 'Everything a full user may open, for an evaluation period.'],
  ['Flat-file only', 'The dashboard: flat-file datasets and requests, history, settings and profile.'],
  ['Partial user', 'The landing page and the client dashboard.'],
  ['KB admin', 'Subscriptions (organisations, users, credits), the admin dashboard, trackers and the dashboard.'],
  ['Flat-file admin', 'Trackers (including reported terms) and the dashboard.'],
  ['Super admin', 'The super-admin page: admin roles, audit log, sessions, data set and settings.'],
];

export function UserManualPage() {
  return (
    <Stack gap="lg" maw={880}>
      <PageHeader
        title="User manual"
        description="How to log in, search the knowledge base, read and filter results, export data and manage your account."
      />
      <List size="sm" spacing={2}>
        {[
          ['logging-in', 'Logging in and sessions'],
          ['roles', 'Roles and what each may open'],
          ['searching', 'Searching'],
          ['structure', 'Structure search and property filters'],
          ['results', 'Results tabs'],
          ['chembl-details', 'Mechanisms, assay parameters, cell lines and ATC codes'],
          ['sar-view', 'SAR view'],
          ['charts', 'Charts as filters'],
          ['analyzers', 'Analyzers'],
          ['dynamic-query', 'Dynamic query'],
          ['export', 'Exports and download credits'],
          ['dashboard', 'Your dashboard'],
          ['client-dashboard', 'Client dashboard'],
          ['administration', 'Administration'],
          ['two-step', 'Two-step login for administrators'],
        ].map(([id, label]) => (
          <List.Item key={id}>
            <Anchor href={`#${id}`}>{label}</Anchor>
          </List.Item>
        ))}
      </List>
      <Divider />

      <InfoSection id="logging-in" title="Logging in and sessions">
        <p>
          Log in on the{' '}
          <Anchor component={Link} to="/login">
            login page
          </Anchor>{' '}
          with the e-mail address and password of your subscription. New users receive an e-mail with a link to set their password; if you
          forgot yours, use{' '}
          <Anchor component={Link} to="/forgot-password">
            Forgot password
          </Anchor>
          . After several failed attempts the login pauses and tells you how long to wait.
        </p>
        <p>
          After 30 minutes without mouse, keyboard, touch or scroll activity you are logged out automatically, and your searches are closed.
          Your session stays valid across tabs of the same browser. Use <strong>Log out</strong> in the header when you leave a shared
          computer; it clears everything the application stored in the browser.
        </p>
      </InfoSection>

      <InfoSection id="roles" title="Roles and what each may open">
        <p>
          Your subscription gives you one or more roles. If you hold several, choose the one to work with in the role switcher of the
          header; the menus show only the pages your current role may open.
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
          A search is a list of rows. Each row picks an option from one of three groupings of the search builder — <strong>Input</strong>{' '}
          (structure, target/enzyme/protein, bibliography, company), <strong>Selection</strong> (degrader type, clinical phase or status,
          source, indication, activity types, assay, activity mechanism, compound categories) and <strong>Tree View</strong> (target,
          indication, pharmacokinetics, toxicity, taxonomy, pathways, clinical phase, assay method name, bibliography, endpoint).
        </p>
        <p>
          Rows are combined with <Code>AND</Code> (the default), <Code>OR</Code> or <Code>NOT</Code>. Inside one row, several values (for
          example several targets) are combined with <Code>|</Code>, meaning “any of”. You can upload a text file of search terms: the
          application reports terms it does not recognise, and you can download them to correct them. Before opening results you see counts
          of matching structures, activities, assays, references and clinical compounds. A search returning more than 750,000 activities
          must be refined.
        </p>
        <p>
          A <strong>Target</strong> row takes more than single targets. Pick a <strong>family</strong> from the suggestions (“Kinase —
          Family · 13 targets”): it stands for every target of that family and of the families under it. Text used as typed is read like a
          chemist means it: an exact gene symbol, UniProt accession or ChEMBL id (<Code>EGFR</Code>, <Code>P00533</Code>, <Code>PARP1</Code>
          ) is that target only; other text of three letters or more stands for the gene symbols starting with it and the names, synonyms
          and families containing it as a whole word (<Code>PARP</Code>, <Code>JAK</Code>, <Code>kinase</Code>,{' '}
          <Code>nuclear receptor</Code>). <Code>*</Code> and <Code>?</Code> are wildcards (<Code>JAK*</Code>, <Code>CDK?</Code>; at most 4
          in a term and 50 wildcard terms at a time). The row says how many targets it stands for; click the number to see them. An uploaded
          list of targets follows the same rules, and terms naming the same target (EGFR and P00533) become one entry.
        </p>
      </InfoSection>

      <InfoSection id="alerts" title="Alerts and notifications">
        <p>
          A saved search can watch the knowledge base for you. Open <strong>My saved searches</strong> (search page, the menu beside “Save
          query”) and switch <strong>Alert me</strong> on for a search. From then on, whenever a data update (a new release, an import)
          finishes, the search is counted again on the rows that update brought in. When it finds new activities or structures you get a
          notification: the bell in the header shows how many are unread, and the{' '}
          <Anchor component={Link} to="/notifications">
            notifications page
          </Anchor>{' '}
          lists them, for example “3 new activities for ‘EGFR IC50’”.
        </p>
        <p>
          <strong>Open the new rows</strong> runs the saved search on the new rows only and shows them in the results, under a banner “New
          in &lt;update&gt;”; every tab, chart and export there holds just those rows. Run the search again from the search page to see all
          of its rows. Opening a notification marks it read; “Mark all read” clears the bell. If e-mail notifications and{' '}
          <strong>Database update e-mails</strong>
          are on in your{' '}
          <Anchor component={Link} to="/dashboard">
            dashboard
          </Anchor>
          ’s notification settings, you also get an e-mail with the same link. Switching an alert off stops it; switching it on again starts
          from the newest update, so nothing is announced twice.
        </p>
      </InfoSection>

      <InfoSection id="structure" title="Structure search and property filters">
        <p>
          Find structures by <strong>name</strong>, by <strong>SMILES</strong> or <strong>SMARTS</strong> (substructure search), by{' '}
          <strong>InChIKey</strong>, by drawing a structure, or by similarity to a query structure. Name search is exact by default; SMILES
          and InChIKey search substructures, with salts removed. A similarity search keeps the structures within the minimum and maximum
          Tanimoto (0.7–1 unless you set them); fill <strong>Nearest only</strong> to keep just the N most similar structures of the
          knowledge base instead of all of them.
        </p>
        <p>
          Property filters restrict structures to ranges of molecular weight, logP, rotatable bonds, polar surface area, pKa, logD and
          solubility. Two presets fill them for you:
        </p>
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
          Select rows to start a new search from them; the new results open under “new search results”. Sorting by similarity to a structure
          reveals a similarity column. Open a compound or reference leaflet from any row to see everything about it on one page.
        </p>
        <p>
          <strong>Compact</strong> rows (the default) fit at least 15 rows on a laptop screen; hover a drawing to enlarge it, or choose{' '}
          <strong>Comfortable</strong> for large drawings. The tick box, the ids and the structure stay on the left while you scroll
          sideways. After a similarity search every tab shows the similarity score and lists the most similar first; after a substructure
          search the drawings show the match in orange, in the grids and in the compound leaflet.
        </p>
      </InfoSection>

      <InfoSection id="leaflets" title="Leaflets and measurements">
        <p>
          A <strong>compound leaflet</strong> gathers one compound on one page: its drawing and identifiers, properties, names, activities
          by target, development status and references. A <strong>reference leaflet</strong> shows one article or patent with the compounds
          and activities it reports.
        </p>
        <List size="sm" spacing={2}>
          <List.Item>
            <strong>Every measurement behind a number.</strong> Click a row of “Activities by target” (or press Enter on it) — the “No
            protein target” row too — to list every measurement of the compound on that target: activity type, relation, value and unit as
            standardised and as published, pChEMBL, the assay with its organism, cell line and conditions (pH, temperature, substrate, assay
            parameters), and the reference. The same list opens from the button beside a <strong>Value</strong> in the Activities tab, from
            a <strong>pActivity</strong> in the SAR table, and from the button at the start of a dynamic-query row. Sort it by value,
            pChEMBL, type or year, narrow it to one activity type, and export it as CSV or Excel (one download credit per row; you confirm
            the price first).
          </List.Item>
          <List.Item>
            <strong>Measured properties.</strong> Where the knowledge base holds a measured solubility, logD or pKa of the compound, the
            Properties panel shows it marked “measured”, with its reference; click the value for all of them.
          </List.Item>
          <List.Item>
            <strong>Links that last.</strong> <Code>/leaflet/structure/…</Code> and <Code>/leaflet/reference/…</Code> open for anyone
            allowed to see leaflets, now and later: use <strong>Copy link</strong> in a leaflet’s header to share one. A reference opened
            from your results also shows which of its compounds your search holds; a colleague opening the same link sees the whole
            reference, with a note that it was opened without your search.
          </List.Item>
          <List.Item>
            <strong>Units</strong> are written as a chemist writes them (µM, 10⁻⁶ cm/s, µg/mL); exported files keep them as the source gave
            them (uM).
          </List.Item>
        </List>
      </InfoSection>

      <InfoSection id="chembl-details" title="Mechanisms, assay parameters, cell lines and ATC codes">
        <p>
          A knowledge base loaded from ChEMBL carries more than activities. The <strong>Activity mechanism</strong> row finds activities
          reported with that mechanism and also the development compounds whose mechanism of action has it (an approved inhibitor counts
          without an activity). The compound leaflet lists each development compound’s targets with action type and mechanism, and its mode
          of action.
        </p>
        <p>
          In the <strong>Assay</strong> tab, the column chooser offers <strong>Cells / organ</strong>, <strong>Tissue</strong> (from
          ChEMBL’s cell line and tissue dictionaries) and <strong>Assay parameters</strong> (dose, time and the like); an assay’s details
          panel lists its parameters as published and standardised. A target can be searched by its <strong>PDB id</strong> (e.g. 1M17);
          ChEMBL releases give no Entrez gene ids, so the Entrez category finds only targets from sources that have them. The compound
          leaflet shows the compound’s <strong>ATC classification</strong> (code, substance and the four levels above); ATC codes are shown,
          not searched.
        </p>
      </InfoSection>

      <InfoSection id="sar-view" title="SAR view">
        <p>
          In the Structures or Activities tab of your results, choose <strong>SAR view</strong>: the ticked rows (or, with none ticked,
          every row of the tab as filtered) open in the SAR view, up to 5,000 compounds; a larger set is refused with a message saying how
          to narrow it. Choose the endpoint (a target and an activity type; the count is of compounds with a value). Values in nM, µM, mM or
          M become pActivity (−log10 molar); other units are used as published, and the page says so. Several measurements of one compound
          count as their median, shown with n and their spread.
        </p>
        <p>
          To compare, add up to three more endpoints under <strong>Compare with</strong> (B, C, D): from the rows you opened, or from{' '}
          <em>every measurement of these compounds</em> in the knowledge base — a search on one target still shows its anti-target. Adding B
          turns on the <strong>A − B</strong> difference column (selectivity: pActivity on A minus pActivity on B; above 0, more active on
          A); any pair of pActivity endpoints can be toggled. The table's rows stay the compounds of the first endpoint; a compound not
          measured on another shows —.
        </p>
        <p>
          Pick a suggested core (the most frequent scaffolds and the common substructure of the set, each with the number of compounds it
          covers), or draw or edit one in the structure editor; up to five cores at once. <strong>Build the SAR table</strong> shows its
          progress and can be cancelled: the page then says “Stopped”, and you can build it again. If no core could be suggested, choose
          Retry or draw one. The tabs show:
        </p>
        <List size="sm" spacing={2}>
          <List.Item>
            <strong>SAR table</strong>: each compound with the core highlighted, its R-groups drawn, pActivity on a colour scale (legend
            above the table), MW, cLogP, ligand efficiency and LipE; with several endpoints, a column per endpoint and per difference, each
            on its own colour scale (the key above the table says what A, B … are and how many compounds have each). Sort and filter any
            column, e.g. sort by A − B for the most selective first; a value opens every measurement behind it; the ID or the drawing opens
            the compound leaflet (Enter on a row too). Compounds that do not fit the core are listed apart, each with the reason.
          </List.Item>
          <List.Item>
            <strong>R-group matrix</strong>: two R positions against each other (the two with most different groups at first), each cell
            coloured by the median activity of its compounds — or of any other endpoint or difference, chosen under Values; a cell opens the
            compound leaflet, an empty one shows the virtual compound that was not made.
          </List.Item>
          <List.Item>
            <strong>Free-Wilson</strong>: what each R-group adds to activity (or to any endpoint or difference, chosen under Values), with
            R² and the number of compounds fitted, and the best predicted combinations (made ones link to their compound, others are drawn).
            Only compounds whose R-groups each occur in at least two compounds are fitted (a group seen once would fit its compound exactly
            and tell nothing); the page says how many were left out.
          </List.Item>
          <List.Item>
            <strong>Activity cliffs</strong>: pairs of similar compounds (Tanimoto on Morgan fingerprints, at least 0.8 by default) whose
            activity differs by at least 1 by default, ranked by SALI, 50 to a page; both thresholds can be changed. In each pair, what
            differs from the other compound is coloured orange. The common part is the largest common substructure RDKit finds; for very
            large molecules it may be the largest found within its time limit, the SAR core, or the atoms with the same neighbours in both —
            the card says so. The leaflet links carry the table's core.
          </List.Item>
          <List.Item>
            <strong>Matched pairs</strong>: each single-cut change (one part of the compound replaced by another, A → B) with how many pairs
            show it, the mean, median and spread of the change in activity and a small histogram of it. Choose an environment radius (1 or 2
            atoms around the cut) to tell the same change at different places apart; filter by the number of pairs, the mean change and
            whether the pairs agree; open a row to see its pairs side by side, the changed part coloured.
          </List.Item>
        </List>
        <p>
          Users who may export can export the SAR table as Excel (R-groups as SMILES) or SDF (R-groups as fields), with every endpoint and
          difference column, one credit per compound. Evaluation users open the SAR view from their results but have no SAR view home page
          and no export. Your choices stay when you reload the page.
        </p>
      </InfoSection>

      <InfoSection id="charts" title="Charts as filters">
        <p>
          Beside the results, charts summarise the current result set (by default: reference, bibliography, year and assay type). Click bars
          or tree nodes to include or exclude values; every tab updates to the filtered set. Charts can be sorted A–Z, Z–A, by least or most
          results, and you can choose which charts to show. Reset all filters to return to the full result.
        </p>
        <p>
          <strong>Structure filter.</strong> Above the charts, <em>Filter by structure…</em> narrows the results without a new search: type
          a SMILES (e.g. <code>c1ccncc1</code> keeps compounds with a pyridine ring) or a SMARTS pattern, or press <em>Draw</em> to sketch
          the structure; search it as a substructure, by similarity (with a minimum and maximum Tanimoto) or exactly, and add property
          ranges (Rule of 5, molecular weight, cLogP…). Choose <em>Keep structures that match</em> or{' '}
          <em>Leave out structures that match</em> and apply: every tab and its count follow (the activities, assays, references and
          development compounds of the structures kept), your chart filters stay, and the filter is shown above the charts with its drawing
          — <em>Change</em> edits it, <em>Remove</em> takes it off. Only the structures of your results are searched, so a filter answers
          quickly even on large results. The filter becomes the last row of your search (shown on the search page as “Structure (filter from
          the results)”), so saving the search keeps it.
        </p>
      </InfoSection>

      <InfoSection id="analyzers" title="Analyzers">
        <p>
          Analyzers chart the rows of the Structures or Activities tab as filtered in the results. Start from the{' '}
          <Anchor component={Link} to="/analyzers">
            Analyzers
          </Anchor>{' '}
          page with the search in your results, or open a saved analysis there. The Activities tab has a scatter of two measures (molecular
          weight, cLogP, polar surface area, H-bond donors and acceptors, rotatable bonds, pActivity, year) coloured by a third,
          distributions of a measure per target, assay type, year or activity type (box plots or histograms of the largest groups), a
          selectivity heatmap of target × compound — the compounds of your rows measured most, each with its median pActivity on every
          target it was measured on in the knowledge base, not only the targets of your search, so a search for one target shows where else
          its compounds are active; the targets of your search's rows are marked ● (click a cell to see the structure and open its leaflet)
          — compounds per target class and the most frequent Murcko scaffolds. The Structures tab has the scatter of structure properties,
          the target classes and the scaffolds; its scatter can also plot or colour each structure by its median pActivity on an endpoint (a
          target and an activity type, listed with the number of structures measured on it) over the structure's activities in your search.
          Structures not measured there are counted under the plot (left out on an axis, drawn grey as the colour), and resting the pointer
          on a point shows the molecule with its values. A saved analysis keeps the endpoint. pActivity is pChEMBL when the source gives it,
          else −log10 of an exact value in a molar unit, as in the SAR view: a qualified value such as “&gt; 10 µM” says where the value is
          not, so it has no pActivity and is left out.
        </p>
        <p>
          Above 20,000 rows the scatter draws a fixed random sample of 20,000 points and says so; its axes still cover every row. Scaffolds
          are computed over at most 5,000 structures (a fixed sample above that). Drag a rectangle over points of the scatter to select
          their rows; on a sampled scatter only the points drawn can be selected (the bar says “N sampled rows selected”), not the rows
          under the rectangle that the sample leaves out. “New search by selection” runs a search of those rows, “Open in SAR view” studies
          them in the SAR view. “Save analysis” keeps the charts under a name (saving under a name you already used replaces it; you keep at
          most 200, so beyond that save under the name of one you no longer need); users who may export list their saved analyses on the
          Analyzers page. An analysis opens on its search’s results, which are kept for 24 hours after their last use: after that, run the
          search again.
        </p>
      </InfoSection>

      <InfoSection id="dynamic-query" title="Dynamic query">
        <p>
          The{' '}
          <Anchor component={Link} to="/dynamicquery">
            Dynamic query
          </Anchor>{' '}
          page (in the menu for every logged-in user) queries one table of the knowledge base directly, for those who think in tables:
          Structures, Compounds, Activities, Assays, References, Targets or Clinical compounds. Choose the table, then tick its columns;
          each shows its type (text, number, whole number, date, yes/no). Activities also offer the target, compound name, SMILES, assay
          ChEMBL id and year of the row they belong to.
        </p>
        <p>
          <strong>Add filter</strong> adds a condition on any column; a row must meet all of them. The operators follow the column&apos;s
          type: text columns take equals and does not equal (the exact text), contains and starts with (ignoring case), is one of (values
          separated by commas) and is empty / is not empty; numbers and dates take =, ≠, &lt;, ≤, &gt;, ≥, between (both ends included) and
          is empty / is not empty; yes/no columns take is true / is false. &ldquo;Does not equal&rdquo; keeps rows without a value. Choose a
          sort (empty values last) and press <strong>Run query</strong>; the rows appear in a grid, a page at a time. Click a column header
          to sort by it. Rows are counted up to 100,000; beyond that the page says &ldquo;more than 100,000 rows&rdquo;. A query that runs
          longer than 30 seconds is stopped: add a filter.
        </p>
        <p>
          Save a query under a name to open it again later (saving under a name you used replaces that query). Your saved queries are yours
          alone. With a full or download-evaluation subscription, export the rows as CSV, Excel or SDF (tables with structures): one
          download credit per row, at most 25,000 rows per export, listed in your{' '}
          <Anchor component={Link} to="/downloads">
            downloads
          </Anchor>{' '}
          like every export.
        </p>
      </InfoSection>

      <InfoSection id="export" title="Exports and download credits">
        <p>
          Export a tab as CSV, Excel or SDF. Each exported record uses download credits from your balance; the export shows how many it
          needs before you start. Exports from the dynamic query, the SAR table and a measurement list open with <b>Export…</b>: pick the
          format, read the price and your balance, and confirm; nothing is spent before you press Export, and the file downloads as soon as
          it is ready. Numbers in files keep every stored digit; on screen each quantity is written as chemists write it (pChEMBL 7.20,
          molecular weight 481.60). Prepared files are listed under Downloads. When 100 or fewer downloads remain, or your subscription ends
          in less than 7 days, a banner tells you so.
        </p>
      </InfoSection>

      <InfoSection id="dashboard" title="Your dashboard">
        <p>
          The{' '}
          <Anchor component={Link} to="/dashboard">
            dashboard
          </Anchor>{' '}
          gathers your flat-file datasets and requests for data, your login history (with successful and failed attempts), your download
          history, your notification settings and your profile with your subscriptions, end dates, download balance and flat-file access.
          From there you can change your password and close your sessions on other devices.
        </p>
      </InfoSection>
      <InfoSection id="client-dashboard" title="Client dashboard">
        <p>
          The{' '}
          <Anchor component={Link} to="/admin/client-dashboard">
            client dashboard
          </Anchor>{' '}
          shows your organisation: seats in use against seats bought, each user&apos;s subscriptions and end dates, credits granted and
          spent, last logins and usage per week (logins, searches and exports) over a period you pick. Administrators choose any
          organisation from the picker at the top.
        </p>
      </InfoSection>

      <InfoSection id="administration" title="Administration">
        <List size="sm" spacing={4}>
          <List.Item>
            <strong>Subscriptions</strong> (KB admin): create organisations and users (the user receives an e-mail to set a password),
            grant, renew, extend or end subscriptions, add or adjust credits with a reason, deactivate accounts, close sessions, send
            password links and lift lock-outs. <strong>Bulk onboarding</strong> reads a CSV or Excel file (download the template):{' '}
            <em>Check</em> reports every row, and <em>Create users</em> creates all of them or none. A change applies at the user&apos;s
            next request.
          </List.Item>
          <List.Item>
            <strong>Admin dashboard</strong> (KB admin): usage per day over a period, subscriptions ending soon, the most active
            organisations and failed logins.
          </List.Item>
          <List.Item>
            <strong>Trackers</strong> (KB and flat-file admins): logins, searches, exports, flat-file downloads and reported terms, filtered
            by user, organisation and dates, and exported as CSV. A reported term is <em>resolved</em> by picking what it means (it then
            becomes a synonym that the next upload identifies) or <em>rejected</em>.
          </List.Item>
          <List.Item>
            <strong>Super admin</strong>: grant and revoke admin roles, search the audit log of every administrative change, close any open
            session, see the data set and rebuild its derived data, and change the login limits, the export background threshold and the
            mail settings.
          </List.Item>
          <List.Item>
            <strong>Releases</strong> (super admin): import a new ChEMBL release from the server&apos;s import folder, watch its progress,
            and read each load&apos;s report — rows added, updated and retired per entity, and the data quality (share with a structure,
            share standardised, unit conversions, rows skipped and why). Retired rows are kept aside and left out of every search; saved
            searches keep working. Search users see &ldquo;What&apos;s new&rdquo; on their Home page.
          </List.Item>
        </List>
        <p>
          Every credit movement is kept in a ledger (your balance is its sum), and every administrative change in the audit log with who
          made it, when, and what changed.
        </p>
      </InfoSection>

      <InfoSection id="two-step" title="Two-step login for administrators">
        <p>
          KB, flat-file and super administrators give a 6-digit code from an authenticator app after their password; until then nothing
          opens, not even a search subscription the account also holds. At your first login the login page sets it up: scan the QR code (or
          type the key under it), enter the code the app shows, and save the ten recovery codes. Each code works once; after 5 wrong codes
          you wait 15 minutes. Lost your phone? Log in with a recovery code and ask a super administrator to reset your authenticator; you
          set it up again at your next login (
          <Anchor component={Link} to="/account/mfa">
            Two-step login
          </Anchor>{' '}
          also replaces your recovery codes). Every password and two-step login change is mailed to you, and a session ends after 12 hours
          however active.
        </p>
      </InfoSection>
    </Stack>
  );
}
