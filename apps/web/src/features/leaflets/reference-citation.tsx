import { Badge, Group, SimpleGrid, Spoiler, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { ReferenceLeaflet } from '@kb/contracts/leaflets';
import { EmptyState } from '../../app/ui/query-view.tsx';
import { citationLine, doiUrl, pubmedUrl } from './leaflet-format.ts';
import { CopyValue, ExternalLink, LeafletSection } from '../../app/ui/leaflet-ui.tsx';

type Document = ReferenceLeaflet['document'];

/** The bibliographic fields of an article or a patent that have a value. */
function bibliographicRows(doc: Document): Array<[string, ReactNode]> {
  const rows: Array<[string, ReactNode]> =
    doc.ref_type === 'patent'
      ? [
          ['Patent number', doc.patent_no],
          ['Office', doc.journal_patent_name],
          ['Country', doc.country_code],
          ['Application type', doc.application_type],
          ['Year', doc.year],
        ]
      : [
          ['Journal', doc.journal_patent_name],
          ['Year', doc.year],
          ['Volume', doc.volume],
          ['Issue', doc.issue],
          ['Pages', doc.start_page ? `${doc.start_page}${doc.end_page ? `–${doc.end_page}` : ''}` : null],
          ['ISSN', doc.issn_no],
        ];
  rows.push(
    ['DOI', doc.doi ? <ExternalLink href={doiUrl(doc.doi)}>{doc.doi}</ExternalLink> : null],
    ['PubMed', doc.pubmed_id !== null ? <ExternalLink href={pubmedUrl(doc.pubmed_id)}>{doc.pubmed_id}</ExternalLink> : null],
    ['Reference id', doc.ref_id],
    ['Source', doc.data_source],
  );
  return rows.filter(([, value]) => value !== null && value !== undefined && value !== '');
}

/** Citation, bibliographic table, authors in order, companies with addresses, and the abstract. */
export function ReferenceCitationSection({ leaflet }: { leaflet: ReferenceLeaflet }) {
  const { document: doc, authors, companies } = leaflet;
  const citation = citationLine(doc);
  const fullCitation = [authors.join(', '), doc.title, citation, doc.doi ? `doi:${doc.doi}` : null].filter(Boolean).join('. ');
  return (
    <LeafletSection
      id="citation"
      title="Bibliographic data"
      actions={
        <Group gap={4}>
          <Text size="xs" c="dimmed">
            Copy citation
          </Text>
          <CopyValue value={fullCitation} label="citation" />
        </Group>
      }
    >
      <Stack gap="md">
        <Text size="sm" data-testid="reference-citation">
          {citation || 'No citation recorded.'}
        </Text>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Table verticalSpacing={4} data-testid="reference-bibliography">
            <Table.Tbody>
              {bibliographicRows(doc).map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={140} fz="sm" c="dimmed" fw={500}>
                    {label}
                  </Table.Th>
                  <Table.Td fz="sm">{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Stack gap="md">
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
                Authors
              </Text>
              {authors.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No authors recorded.
                </Text>
              ) : (
                <Group gap={6} data-testid="reference-authors">
                  {authors.map((author, index) => (
                    <Badge key={`${index}-${author}`} variant="light" color="gray" tt="none" radius="sm">
                      {author}
                    </Badge>
                  ))}
                </Group>
              )}
            </div>
            <div>
              <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
                Companies
              </Text>
              {companies.length === 0 ? (
                <Text size="sm" c="dimmed">
                  No companies recorded.
                </Text>
              ) : (
                <Stack gap={4} data-testid="reference-companies">
                  {companies.map((company) => (
                    <div key={company.company_id}>
                      <Text size="sm" fw={500}>
                        {company.name}
                      </Text>
                      {(company.address || company.country) && (
                        <Text size="xs" c="dimmed">
                          {[company.address, company.country].filter(Boolean).join(', ')}
                        </Text>
                      )}
                    </div>
                  ))}
                </Stack>
              )}
            </div>
          </Stack>
        </SimpleGrid>
        <div>
          <Text size="xs" c="dimmed" tt="uppercase" fw={700} mb={4}>
            Abstract
          </Text>
          {doc.abstract ? (
            <Spoiler maxHeight={120} showLabel="Show the whole abstract" hideLabel="Show less">
              <Text size="sm" style={{ whiteSpace: 'pre-line' }} data-testid="reference-abstract">
                {doc.abstract}
              </Text>
            </Spoiler>
          ) : (
            <EmptyState>No abstract available for this reference.</EmptyState>
          )}
        </div>
      </Stack>
    </LeafletSection>
  );
}
