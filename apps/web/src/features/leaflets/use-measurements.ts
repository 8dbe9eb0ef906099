import { useQuery } from '@tanstack/react-query';
import { leafletEndpoints } from '@kb/contracts/leaflets';
import type { LeafletIdType, MeasurementSort, MeasurementTarget } from '@kb/contracts/leaflets';
import { endpointQuery } from '../../app/query.ts';

/**
 * Whose measurements a list shows: a compound as its leaflet names it (idType + id) or one
 * measurement standing for its compound and target (actId), on a target, none or all.
 */
export interface MeasurementSubject {
  idType?: LeafletIdType;
  id?: number;
  actId?: number;
  targetId?: MeasurementTarget;
  /** Open on one activity type (a SAR table's endpoint). */
  type?: string;
  /** Only this assay's measurements (a sheet's assay column). */
  assayId?: number;
  /** Said in the title while the list loads ("Gefitinib on EGFR"). */
  label?: string;
}

export interface MeasurementView {
  type: string | null;
  sort: MeasurementSort;
  direction: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** The selection part of a request (the same for the list and its export). */
export function measurementSelection(subject: MeasurementSubject, view: Pick<MeasurementView, 'type' | 'sort' | 'direction'>) {
  return {
    idType: subject.idType ?? 'structure',
    // Undefined parts stay out of the request.
    id: subject.actId === undefined ? subject.id : undefined,
    actId: subject.actId,
    targetId: subject.targetId,
    assayId: subject.assayId,
    type: view.type ?? undefined,
    sort: view.sort,
    direction: view.direction,
  };
}

/** A page of the list; the page on screen stays while the next one (another sort, type or page) loads. */
export function useMeasurements(subject: MeasurementSubject | null, view: MeasurementView) {
  const query = { ...measurementSelection(subject ?? {}, view), page: view.page, pageSize: view.pageSize };
  return useQuery({
    ...endpointQuery(leafletEndpoints.measurements, { query }),
    enabled: subject !== null,
    placeholderData: (previous) => previous,
  });
}
