// The download benchmark's baseline (bench/files.ts): a bare node:http server, in a process of
// its own as Quire's server is, streaming one file (whole, or the bytes of a Range header)
// with Node's default read size. Says "listening <port>" on stdout.
//
//   node --import tsx bench/bare-download-server.ts <file>
import { createReadStream, statSync } from 'node:fs';
import http from 'node:http';
import { pipeline } from 'node:stream/promises';

const file = process.argv[2];
if (!file) throw new Error('usage: bare-download-server.ts <file>');
const size = statSync(file).size;
const server = http.createServer((req, res) => {
  const range = /bytes=(\d+)-(\d+)/.exec(req.headers.range ?? '');
  if (range) {
    const [start, end] = [Number(range[1]), Number(range[2])];
    res.writeHead(206, { 'content-length': end - start + 1 });
    pipeline(createReadStream(file, { start, end }), res).catch(() => {});
    return;
  }
  res.writeHead(200, { 'content-length': size });
  pipeline(createReadStream(file), res).catch(() => {});
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
});
