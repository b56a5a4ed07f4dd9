import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A small file system of its own for the full-disk tests: a tmpfs mounted on a fresh folder.
 * Mounting needs root; elsewhere those suites skip with one line, and CI (ANWC_REQUIRE_TMPFS=1)
 * fails instead.
 */
export interface SmallDisk {
  dir: string;
  /** Fills the disk with a file of zeros until only about `leaveBytes` are free. */
  fill(leaveBytes: number): void;
  /** Removes the filler: the space is free again. */
  free(): void;
  unmount(): void;
}

export function mountSmallDisk(sizeKb: number): SmallDisk | string {
  const dir = mkdtempSync(join(tmpdir(), 'anwc-disk-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    const reason = `needs to mount a small tmpfs as root for a full disk (${(r.stderr || r.error?.message || 'mount failed').trim()})`;
    if (process.env.ANWC_REQUIRE_TMPFS === '1') throw new Error(`full-disk test cannot run: ${reason}`);
    return reason;
  }
  const filler = join(dir, 'filler');
  return {
    dir,
    fill(leaveBytes) {
      const s = statfsSync(dir);
      let left = s.bavail * s.bsize - leaveBytes;
      const chunk = Buffer.alloc(64 * 1024);
      const fd = openSync(filler, 'a');
      try {
        while (left > 0) left -= writeSync(fd, chunk, 0, Math.min(chunk.length, left));
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    unmount() {
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
