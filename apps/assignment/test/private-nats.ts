/** A nats-server of a test file's own (now in @media/testing, which other tests use too). */
export { startNats, type PrivateNats } from '@media/testing';
