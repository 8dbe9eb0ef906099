import type { Person, ShareAccess, Sharing, SharingRequest, Visibility } from '@kb/contracts/workspace';

/** The sharing dialog's draft: who sees it and what they may do. */
export interface SharingDraft {
  visibility: Visibility;
  organisationAccess: ShareAccess;
  people: (Person & { access: ShareAccess })[];
}

const PRIVATE_DRAFT: SharingDraft = { visibility: 'private', organisationAccess: 'read', people: [] };

/** The draft a dialog opens with: the object's current sharing. */
export function draftOf(sharing: Sharing | null): SharingDraft {
  return sharing
    ? { visibility: sharing.visibility, organisationAccess: sharing.organisationAccess, people: sharing.people }
    : PRIVATE_DRAFT;
}

/** Why the draft cannot be saved, or null. */
export function draftError(draft: SharingDraft): string | null {
  if (draft.visibility === 'people' && draft.people.length === 0) return 'Choose at least one colleague, or keep it private.';
  if (draft.people.length > 200) return 'Share with at most 200 colleagues by name.';
  return null;
}

/** The request of a draft (the named colleagues are kept with any visibility, as the server keeps them). */
export function sharingRequest(draft: SharingDraft): SharingRequest {
  return {
    visibility: draft.visibility,
    organisationAccess: draft.organisationAccess,
    people: draft.people.map((person) => ({ userId: person.userId, access: person.access })),
  };
}
