// Counts since the start that /metrics exports (src/monitor/metrics.ts): commands by source and
// result, confirmations by value. Plain maps, so counting costs nothing when nobody asks.

/** Per source: [ok, fault, busy]. No string is built per command: this runs for every /mlds. */
const commands = new Map<string, [number, number, number]>();
const confirmations = new Map<number, number>();
/** Accepted commands whose content was replaced before any frame carried it to the output. */
let superseded = 0;

/** `busy`: shed unapplied under a flood (MQTT's MLDS_BUSY). */
export function countCommand(source: string, result: 'ok' | 'fault' | 'busy'): void {
  let c = commands.get(source);
  if (!c) commands.set(source, (c = [0, 0, 0]));
  c[result === 'ok' ? 0 : result === 'fault' ? 1 : 2]++;
}

export function countConfirmation(confirm: 0 | 1 | 2): void {
  confirmations.set(confirm, (confirmations.get(confirm) ?? 0) + 1);
}

export function commandCounts(): Array<{ source: string; result: string; count: number }> {
  return [...commands].flatMap(([source, [ok, fault, busy]]) => [
    ...(ok ? [{ source, result: 'ok', count: ok }] : []),
    ...(fault ? [{ source, result: 'fault', count: fault }] : []),
    ...(busy ? [{ source, result: 'busy', count: busy }] : []),
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
