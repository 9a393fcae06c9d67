// Booting apps and talking to real servers takes longer than jest's 5 s default, and on a loaded
// CI machine (load average 20-30 on two cores) a hook booting an app took over 30 s: a bound,
// not a wait, so it is generous.
jest.setTimeout(60_000);
