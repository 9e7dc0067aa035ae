// Counts since the start that /metrics exports (src/monitor/metrics.ts): commands by source and
// result, confirmations by value. Plain maps, so counting costs nothing when nobody asks.

/** Per source: [ok, fault]. No string is built per command: this runs for every /mlds. */
const commands = new Map<string, [number, number]>();
const confirmations = new Map<number, number>();
/** Accepted commands whose content was replaced before any frame carried it to the output. */
let superseded = 0;

export function countCommand(source: string, result: 'ok' | 'fault'): void {
  let c = commands.get(source);
  if (!c) commands.set(source, (c = [0, 0]));
  c[result === 'ok' ? 0 : 1]++;
}

export function countConfirmation(confirm: 0 | 1 | 2): void {
  confirmations.set(confirm, (confirmations.get(confirm) ?? 0) + 1);
}

export function commandCounts(): Array<{ source: string; result: string; count: number }> {
  return [...commands].flatMap(([source, [ok, fault]]) => [
    ...(ok ? [{ source, result: 'ok', count: ok }] : []),
    ...(fault ? [{ source, result: 'fault', count: fault }] : []),
  ]);
}

export function confirmationCounts(): Array<{ confirm: number; count: number }> {
  return [...confirmations].map(([confirm, count]) => ({ confirm, count }));
}

export function countSuperseded(): void {
  superseded++;
}

export function supersededCount(): number {
  return superseded;
}
