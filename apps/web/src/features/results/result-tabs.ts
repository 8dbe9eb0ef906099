/** Spec §2 "Results tabs": the contract's list, named here for the pages that link to a tab. */
export { resultTabLabel } from '@kb/contracts/result-tabs';
