// Preloaded into a child process (`node --import`): its clock starts at MLDS_CLOCK_AT (ms since
// the epoch) and runs on from there, so a command that reads the time draws a known moment.
const at = Number(process.env.MLDS_CLOCK_AT);
if (Number.isFinite(at) && at > 0) {
  const real = Date.now;
  const shift = at - real();
  Date.now = () => real() + shift;
}
