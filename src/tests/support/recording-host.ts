// A host that must receive nothing: it records every request and proxy tunnel it is asked
// for (a proxy sees `CONNECT host:port`, or the whole request with its headers in clear),
// and answers each with 502, so nothing it is sent ever succeeds.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

export interface RecordingHost {
  url: string;
  calls: RecordedCall[];
  close(): Promise<void>;
}

export async function startRecordingHost(): Promise<RecordingHost> {
  const calls: RecordedCall[] = [];
  const server = createServer((request, response) => {
    calls.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
    request.resume();
    response.writeHead(502).end();
  });
  server.on("connect", (request, socket) => {
    calls.push({ method: "CONNECT", url: request.url ?? "", headers: request.headers });
    socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
