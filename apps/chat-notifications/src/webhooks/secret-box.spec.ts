import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { newEndpointSecret, SecretBox, signatureHeader } from './secret-box';

describe('webhook secrets', () => {
  it('seals a secret so that only the key and the same endpoint open it', () => {
    const box = new SecretBox(randomBytes(32));
    const secret = newEndpointSecret();
    const id = randomUUID();
    const sealed = box.seal(secret, id);
    expect(sealed).not.toContain(secret.slice(6));
    expect(box.open(sealed, id)).toBe(secret);
    expect(() => box.open(sealed, randomUUID())).toThrow();
    expect(() => new SecretBox(randomBytes(32)).open(sealed, id)).toThrow();
  });

  it('signs as Standard Webhooks says: the reference library verifies each of two signatures', () => {
    const [oldSecret, newSecret] = [newEndpointSecret(), newEndpointSecret()];
    const id = randomUUID();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 't', timestamp: new Date().toISOString(), data: { a: 1 } });
    const headers = {
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader([newSecret, oldSecret], id, timestamp, body),
    };
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(new Webhook(oldSecret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newEndpointSecret()).verify(body, headers)).toThrow();
  });
});
