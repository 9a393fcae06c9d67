import { AppLogger } from './app-logger';

describe('AppLogger and NATS disconnects', () => {
  let planned = false;
  const logger = new AppLogger('fixture', { level: 'info' }, () => planned);
  const error = jest.spyOn(logger.root, 'error').mockImplementation(() => undefined);
  const info = jest.spyOn(logger.root, 'info').mockImplementation(() => undefined);
  afterEach(() => {
    planned = false;
    jest.clearAllMocks();
  });
  afterAll(() => jest.restoreAllMocks());

  it("logs Nest's disconnect error as an error when no move is planned", () => {
    logger.error('NatsError: type: "disconnect".', 'ClientNats');
    expect(error).toHaveBeenCalledWith({ context: 'ClientNats' }, 'NatsError: type: "disconnect".');
    expect(info).not.toHaveBeenCalled();
  });

  it('logs it at info while a planned move to a rejoined node is under way', () => {
    planned = true;
    logger.error('NatsError: type: "disconnect".', 'ClientNats');
    logger.error('NatsError: type: "error", error: "boom".', 'ClientNats');
    expect(info).toHaveBeenCalledWith(
      { context: 'ClientNats' },
      'NATS connection moving to a node that rejoined (planned)',
    );
    // Any other error stays an error.
    expect(error).toHaveBeenCalledWith({ context: 'ClientNats' }, 'NatsError: type: "error", error: "boom".');
  });
});
