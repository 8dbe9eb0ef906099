import fs from 'node:fs';

/**
 * A process's resident memory now and its high-water mark (Linux /proc: VmRSS, VmHWM), in MB; null
 * where /proc is not there or the process is gone. The load bench reads the server's (issue 62: the
 * whole server at L within the 5.8 GB measured before plus the held sets' budget).
 */
export function processMemory(pid: number | undefined): { rssMb: number; peakRssMb: number } | null {
  if (pid === undefined) return null;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
    return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}
