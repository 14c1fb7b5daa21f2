import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { adminApp, type CallAs } from '../../../test/seed.js';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp.js';
import { PRIVATE_HOST_MESSAGE } from './email.hosts.js';

// Without SMTP_ALLOW_PRIVATE_HOSTS (the default), a Settings writer cannot point the mail at
// this machine or a private network: a port scanner with a read-out otherwise.

let t: TestContext;
let smtp: TestSmtpServer;
let asAdmin: CallAs;
beforeAll(async () => {
  ({ t, asAdmin } = await adminApp('COMPANY ADMIN'));
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const setup = (host: string) =>
  asAdmin({
    method: 'POST',
    url: '/api/email/setup',
    payload: { host, port: smtp.port, security: 'none', from_address: 'noreply@quire.test' },
  });

describe('SMTP hosts on this machine or a private network', () => {
  it.each([
    '127.0.0.1',
    '2130706433',
    '0x7f000001',
    '127.1',
    '017700000001',
    'localhost',
    'mail.localhost',
    '[::1]',
    '::1',
    '[::ffff:127.0.0.1]',
    '169.254.169.254',
    '10.1.2.3',
    '172.16.0.9',
    '192.168.1.20',
    '0.0.0.0',
    '[fe80::1]',
    '[fd00::25]',
  ])('refuses %s with 400 naming the host, saving nothing', async (host) => {
    const audits = await t.db.auditEvent.count();
    const res = await setup(host);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'body.host', message: PRIVATE_HOST_MESSAGE }]);
    expect(await t.db.emailSettings.count()).toBe(0);
    expect(await t.db.auditEvent.count()).toBe(audits);
  });

  it('accepts a public name (checked again at each delivery)', async () => {
    expect((await setup('smtp.example.com')).statusCode).toBe(200);
    await t.db.emailSettings.deleteMany();
  });

  it('refuses to deliver to a private host saved earlier, storing only its own words', async () => {
    // As if saved before this rule, or by a name that resolved elsewhere at the time.
    await t.db.emailSettings.create({
      data: {
        id: 1,
        host: '127.0.0.1',
        port: smtp.port,
        security: 'none',
        fromAddress: 'noreply@quire.test',
      },
    });
    const res = await asAdmin({
      method: 'POST',
      url: '/api/email/test',
      payload: { to: 'probe@example.test' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toBe(`The test e-mail could not be sent: ${PRIVATE_HOST_MESSAGE}`);
    const job = await t.db.mailJob.findFirstOrThrow({ where: { to: 'probe@example.test' } });
    expect(job).toMatchObject({ status: 'failed', lastError: PRIVATE_HOST_MESSAGE });
    expect(smtp.messages).toHaveLength(0);
  });
});
