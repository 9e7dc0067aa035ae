// Counts since the start that /metrics exports (src/monitor/metrics.ts): commands by source and
// result, confirmations by value. Plain maps, so counting costs nothing when nobody asks.

const commands = new Map<string, number>();
const confirmations = new Map<number, number>();

export function countCommand(source: string, result: 'ok' | 'fault'): void {
  const key = `${source}\u0000${result}`;
  commands.set(key, (commands.get(key) ?? 0) + 1);
}

export function countConfirmation(confirm: 0 | 1 | 2): void {
  confirmations.set(confirm, (confirmations.get(confirm) ?? 0) + 1);
}

export function commandCounts(): Array<{ source: string; result: string; count: number }> {
  return [...commands].map(([k, count]) => { const [source, result] = k.split('\u0000'); return { source, result, count }; });
}

export function confirmationCounts(): Array<{ confirm: number; count: number }> {
  return [...confirmations].map(([confirm, count]) => ({ confirm, count }));
}
