import { connect } from 'node:net';

/**
 * Sends `POST /upload` with a declared `size`-byte body over a raw connection, as fast as the
 * connection takes it (what a flood or a large upload does), and resolves with everything the
 * server answered once the connection is closed.
 */
export function sendDeclaredBody(port: number, size: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const piece = Buffer.alloc(64 * 1024, 0x61);
    let written = 0;
    const pump = () => {
      while (written < size && !socket.destroyed) {
        const part = piece.subarray(0, Math.min(piece.length, size - written));
        written += part.length;
        if (!socket.write(part)) return void socket.once('drain', pump);
      }
    };
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(answer));
    socket.write(`POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    pump();
  });
}
