/** Spec §2 "Results tabs": keys and labels, each enabled by default. */
export const RESULT_TABS = [
  { key: 'structuretab', label: 'Structures' },
  { key: 'activitiestab', label: 'Activities' },
  { key: 'assaytab', label: 'Assay' },
  { key: 'developmentcompoundstab', label: 'Development Compounds' },
  { key: 'documentstab', label: 'Documents' },
] as const;

/** The label of a tab key, or null for an unknown key. */
export function resultTabLabel(key: string | undefined): string | null {
  return RESULT_TABS.find((tab) => tab.key === key)?.label ?? null;
}
