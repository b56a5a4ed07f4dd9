import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's chromium package, or the browser ANWC_CHROMIUM names; never a downloaded one. */
export const CHROMIUM = process.env.ANWC_CHROMIUM ?? '/usr/bin/chromium';

/**
 * A machine without Chromium skips the browser suites with this one line; CI sets
 * ANWC_REQUIRE_CHROMIUM=1, where a missing browser fails instead.
 */
export function needsChromium(): false | string {
  if (existsSync(CHROMIUM)) return false;
  const reason = `needs Chromium at ${CHROMIUM} (apt-get install chromium, or set ANWC_CHROMIUM)`;
  if (process.env.ANWC_REQUIRE_CHROMIUM === '1') throw new Error(`browser missing: ${reason}`);
  return reason;
}

/**
 * Headless, with the background services off: on a machine without a network they would only
 * fail to look up Google's hosts.
 */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
