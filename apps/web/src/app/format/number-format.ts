/**
 * Numbers as people read them: the shared rule of the contracts (packages/contracts/src/quantities.ts),
 * so that grids, charts, leaflets and exports write a quantity alike. Values arrive as float8 from
 * the database (297.38300000000004): the screen rounds them per quantity; exports keep every stored
 * digit (written by the server).
 */
import { formatQuantity } from '@kb/contracts/quantities';

export type { NumberStyle, Quantity } from '@kb/contracts/quantities';
export { NO_NUMBER, formatNumber, formatNumberRange, formatQuantity } from '@kb/contracts/quantities';

/** pChEMBL as ChEMBL publishes it, always two decimals ("7.20", not "7.2" beside "7.35"). */
export function formatPchembl(value: number | null | undefined): string {
  return formatQuantity(value, 'pActivity');
}
