import { request } from 'node:http';

/** What a streamed PUT was answered: status, headers, the body parsed as JSON, and whether the test had ended the body first. */
export interface StreamedAnswer {
  status: number;
  headers: Record<string, unknown>;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  endedFirst: boolean;
}

/** A PUT whose body the test writes piece by piece (chunked, no Content-Length), as a slow client would. */
export function streamingPut(url: string, headers: Record<string, string> = {}) {
  const req = request(url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream', ...headers } });
  let ended = false;
  let answered = false;
  const response = new Promise<StreamedAnswer>((resolve, reject) => {
    req.on('response', (res) => {
      answered = true;
      const endedFirst = ended;
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: text ? JSON.parse(text) : null,
          endedFirst,
        }),
      );
    });
    req.on('error', reject);
  });
  return {
    response,
    /** Whether an answer has arrived (a refusal comes while the body is still being sent). */
    answered: () => answered,
    /** Writes one piece and waits until it is flushed to the socket. */
    write: (piece: Buffer) =>
      new Promise<void>((resolve, reject) => req.write(piece, (err) => (err ? reject(err) : resolve()))),
    end: () => {
      ended = true;
      req.end();
    },
    abort: () => req.destroy(),
  };
}
