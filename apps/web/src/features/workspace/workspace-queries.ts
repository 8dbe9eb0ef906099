import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Endpoint } from '@kb/contracts/endpoint';
import { workspaceEndpoints } from '@kb/contracts/workspace';
import type { CompoundSource, SharingRequest } from '@kb/contracts/workspace';
import { callApi, errorMessage, isApiRequestError } from '../../app/api-client.ts';
import { endpointKey, endpointQuery, queryClient, refetchAfterChange } from '../../app/query.ts';

/**
 * The workspace's calls as queries and mutations. Every change refreshes the lists it touches
 * (collections, result sets) and the one object, so the pages never show a stale name, count or
 * sharing after an action.
 */

export type WorkspaceKind = 'collection' | 'resultSet';

/** A 404 from a workspace call: the object does not exist or is not shared with the caller (the server never says which). */
export function isNotFound(error: unknown): boolean {
  return isApiRequestError(error) && error.status === 404;
}

function invalidate(...endpoints: Endpoint[]): Promise<void> {
  return Promise.all(endpoints.map((endpoint) => refetchAfterChange(queryClient, { queryKey: endpointKey(endpoint) }))).then(
    () => undefined,
  );
}

/** Refreshes every workspace list and object (after any change: names, counts and sharing show in several places). */
export function refreshCollections(): Promise<void> {
  return invalidate(workspaceEndpoints.collections, workspaceEndpoints.collection, workspaceEndpoints.collectionItems);
}

export function refreshResultSets(): Promise<void> {
  return invalidate(workspaceEndpoints.resultSets, workspaceEndpoints.resultSet);
}

export function useCollections() {
  return useQuery(endpointQuery(workspaceEndpoints.collections, {}));
}

export function useResultSets() {
  return useQuery(endpointQuery(workspaceEndpoints.resultSets, {}));
}

export function useHistory() {
  return useQuery(endpointQuery(workspaceEndpoints.history, {}));
}

export function useCollection(id: number) {
  return useQuery({ ...endpointQuery(workspaceEndpoints.collection, { params: { id } }), retry: false });
}

export function useCollectionItems(id: number, page: number, pageSize: number) {
  return useQuery({
    ...endpointQuery(workspaceEndpoints.collectionItems, { params: { id }, query: { page, pageSize } }),
    placeholderData: (previous) => previous,
  });
}

/** Shows a failed action's message: a workspace action never fails silently. */
function failed(title: string) {
  return (error: unknown) => notifications.show({ color: 'red', title, message: errorMessage(error), autoClose: false });
}

export function useCreateCollection() {
  return useMutation({
    mutationFn: (input: { name: string; description?: string; source?: CompoundSource }) =>
      callApi(workspaceEndpoints.createCollection, { body: { description: '', ...input } }),
    onSuccess: () => void refreshCollections(),
    onError: failed('The collection was not created'),
  });
}

export function useAddItems() {
  return useMutation({
    mutationFn: ({ id, source }: { id: number; source: CompoundSource }) =>
      callApi(workspaceEndpoints.addItems, { params: { id }, body: { source } }),
    onSuccess: () => void refreshCollections(),
    onError: failed('The compounds were not added'),
  });
}

export function useRemoveItems() {
  return useMutation({
    mutationFn: ({ id, strIds }: { id: number; strIds: number[] }) =>
      callApi(workspaceEndpoints.removeItems, { params: { id }, body: { strIds } }),
    onSuccess: () => void refreshCollections(),
    onError: failed('The compounds were not removed'),
  });
}

/** Rename (both kinds); the caller says which. */
export function useRename(kind: WorkspaceKind) {
  return useMutation({
    mutationFn: async ({ id, name }: { id: number; name: string }): Promise<void> => {
      if (kind === 'collection') await callApi(workspaceEndpoints.updateCollection, { params: { id }, body: { name } });
      else await callApi(workspaceEndpoints.updateResultSet, { params: { id }, body: { name } });
    },
    onSuccess: () => void (kind === 'collection' ? refreshCollections() : refreshResultSets()),
    onError: failed('The new name was not saved'),
  });
}

export function useDelete(kind: WorkspaceKind) {
  return useMutation({
    mutationFn: async (id: number): Promise<void> => {
      if (kind === 'collection') await callApi(workspaceEndpoints.deleteCollection, { params: { id } });
      else await callApi(workspaceEndpoints.deleteResultSet, { params: { id } });
    },
    onSuccess: () => void (kind === 'collection' ? refreshCollections() : refreshResultSets()),
    onError: failed('It was not deleted'),
  });
}

export function useShare(kind: WorkspaceKind) {
  return useMutation({
    mutationFn: async ({ id, sharing }: { id: number; sharing: SharingRequest }): Promise<void> => {
      if (kind === 'collection') await callApi(workspaceEndpoints.shareCollection, { params: { id }, body: sharing });
      else await callApi(workspaceEndpoints.shareResultSet, { params: { id }, body: sharing });
    },
    onSuccess: () => void (kind === 'collection' ? refreshCollections() : refreshResultSets()),
    onError: failed('The sharing was not changed'),
  });
}
