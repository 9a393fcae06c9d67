// Booting apps and talking to real servers takes longer than jest's 5 s default.
jest.setTimeout(30_000);
