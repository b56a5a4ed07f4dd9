import nodemailer from 'nodemailer';
import { Agent, fetch } from 'undici';
import { UserError } from '../errors.js';
import { redact } from '../store/url.js';
import { AddressPolicy, type AddressPolicyOptions } from '../web/address.js';
import { AddressError, guardedConnector } from '../web/connector.js';
import { classifyNetworkError } from '../web/net-errors.js';

/**
 * Delivery of maintenance notices: mail through the user's SMTP server (nodemailer) and a JSON
 * POST to a webhook. Each is tried three times with a pause between; a failure is one line that
 * never shows a password, and the caller decides the exit code. The webhook is a URL like any
 * the crawler meets, so it goes through the crawler's address policy and --resolve mappings; a
 * redirect it answers with is not followed.
 */

const PAUSES_MS = [500, 2000];

async function withRetries<T>(attempt: () => Promise<T>, final: (err: unknown) => boolean = () => false): Promise<T> {
  let last: unknown;
  for (let i = 0; i <= PAUSES_MS.length; i++) {
    try {
      return await attempt();
    } catch (err) {
      last = err;
      if (final(err)) break;
      if (i < PAUSES_MS.length) await new Promise((ok) => setTimeout(ok, PAUSES_MS[i]));
    }
  }
  throw last;
}

function reason(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; message?: string };
  return [e.code, e.responseCode, e.message?.split('\n')[0]].filter((x) => x !== undefined && x !== '').join(' ');
}

/** A refused login or an SMTP 5xx answer: sending again would be refused again (and a login tried again may lock the account). */
function permanent(err: unknown): boolean {
  const e = err as { code?: string; responseCode?: number };
  return e.code === 'EAUTH' || (e.responseCode !== undefined && e.responseCode >= 500 && e.responseCode < 600);
}

/**
 * The password of an SMTP address as it may come back in a server's answer: as given, and in the
 * base64 of AUTH PLAIN and AUTH LOGIN, which a server refusing a login may quote (535 … <what it
 * got>), and nodemailer puts that answer in its error.
 */
function smtpSecrets(smtp: string): string[] {
  let url: URL;
  try {
    url = new URL(smtp);
  } catch {
    return [];
  }
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  if (password === '') return [];
  const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  return [base64(`\0${user}\0${password}`), base64(password), url.password, password]
    .flatMap((s) => [s, s.replace(/=+$/, '')]).filter((s) => s !== '');
}

/** The text with each secret written as ***, the longest first, so that one inside another goes with it. */
function hideSecrets(text: string, secrets: string[]): string {
  return [...secrets].sort((a, b) => b.length - a.length).reduce((t, s) => t.split(s).join('***'), text);
}

export async function sendMail(smtp: string, mail: { from: string; to: string; subject: string; text: string }): Promise<string | undefined> {
  const transport = nodemailer.createTransport(smtp);
  try {
    await withRetries(() => transport.sendMail(mail), permanent);
    return undefined;
  } catch (err) {
    return `mail to ${mail.to} through ${redact(smtp)} not sent: ${hideSecrets(redact(reason(err)), smtpSecrets(smtp))}`;
  } finally {
    transport.close();
  }
}

class Redirected extends Error {
  constructor(status: number, location: string) {
    super(`HTTP ${status} to ${location}, not followed; give that address as --webhook`);
  }
}

/** The address settings the webhook is held to: the crawler's own (--resolve, --allow-private). */
export type WebhookPolicy = Pick<AddressPolicyOptions, 'resolve' | 'allowPrivate'>;

/**
 * Checks the webhook's address before any work, so that a run does not crawl for an hour to find
 * it cannot deliver: an address the policy refuses is the user's to fix. A name that does not
 * resolve now may resolve at the end, and is left to the delivery.
 */
export async function checkWebhook(url: string, policy: WebhookPolicy): Promise<void> {
  const host = new URL(url).hostname;
  const verdict = await new AddressPolicy(policy).check(host);
  if (!verdict.ok && verdict.failure === 'refused-address') {
    throw new UserError(`--webhook ${redact(url)}: ${verdict.detail}`, { fix: 'give a webhook on a public address, map its name with --resolve HOST:ADDR, or allow private addresses with --allow-private' });
  }
}

export async function postWebhook(url: string, body: unknown, policy: WebhookPolicy): Promise<string | undefined> {
  const agent = new Agent({ connect: guardedConnector(new AddressPolicy(policy)) });
  try {
    await withRetries(async () => {
      // A redirect is not followed: 301 and 302 turn the POST into a GET that carries no report,
      // and the next address would be one more to hold to the policy. The user gives the final one.
      const res = await fetch(url, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body),
        redirect: 'manual', signal: AbortSignal.timeout(30_000), dispatcher: agent,
      });
      await res.arrayBuffer();
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location !== null) throw new Redirected(res.status, new URL(location, url).href);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    }, (err) => err instanceof Redirected || (err as { cause?: unknown }).cause instanceof AddressError);
    return undefined;
  } catch (err) {
    const refused = (err as { cause?: unknown }).cause instanceof AddressError;
    return `webhook ${redact(url)} not reached: ${redact(refused ? classifyNetworkError(err, false).detail : reason(err))}`;
  } finally {
    await agent.close();
  }
}
