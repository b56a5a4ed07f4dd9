import nodemailer from 'nodemailer';
import { redact } from '../store/url.js';

/**
 * Delivery of maintenance notices: mail through the user's SMTP server (nodemailer) and a JSON
 * POST to a webhook. Each is tried three times with a pause between; a failure is one line that
 * never shows a password, and the caller decides the exit code.
 */

const PAUSES_MS = [500, 2000];

async function withRetries<T>(attempt: () => Promise<T>): Promise<T> {
  let last: unknown;
  for (let i = 0; i <= PAUSES_MS.length; i++) {
    try {
      return await attempt();
    } catch (err) {
      last = err;
      if (i < PAUSES_MS.length) await new Promise((ok) => setTimeout(ok, PAUSES_MS[i]));
    }
  }
  throw last;
}

function reason(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; message?: string };
  return [e.code, e.responseCode, e.message?.split('\n')[0]].filter((x) => x !== undefined && x !== '').join(' ');
}

export async function sendMail(smtp: string, mail: { from: string; to: string; subject: string; text: string }): Promise<string | undefined> {
  const transport = nodemailer.createTransport(smtp);
  try {
    await withRetries(() => transport.sendMail(mail));
    return undefined;
  } catch (err) {
    return `mail to ${mail.to} through ${redact(smtp)} not sent: ${redact(reason(err))}`;
  } finally {
    transport.close();
  }
}

export async function postWebhook(url: string, body: unknown): Promise<string | undefined> {
  try {
    await withRetries(async () => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
    });
    return undefined;
  } catch (err) {
    return `webhook ${redact(url)} not reached: ${redact(reason(err))}`;
  }
}
