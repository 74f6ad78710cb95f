/** Viewer test helpers: a temp per-user runtime dir whose manager is always shut down, and a tiny cookie-jar browser. */
import { after } from 'node:test';
import { IpcClient, viewerRuntimePaths } from '@docforge/ipc';
import { removeDir, tempDir } from './projects.js';

/** A temp runtime dir for the viewer manager; registers an `after` hook that shuts its manager down and removes it. */
export function useViewerRuntime(): { env: Record<string, string>; manager(): Promise<IpcClient | null>; shutdown(): Promise<void> } {
  const dir = tempDir('dfv-run-');
  const env = { DOCFORGE_VIEWER_RUNTIME_DIR: dir };
  const socket = viewerRuntimePaths(env).socket;
  const manager = async (): Promise<IpcClient | null> => {
    try {
      return await IpcClient.connect(socket, { client: 'test' });
    } catch {
      return null;
    }
  };
  const shutdown = async (): Promise<void> => {
    const c = await manager();
    if (c !== null) {
      await c.request('shutdown', {}).catch(() => {});
      c.close();
      // Wait (bounded) until the manager stopped listening, so nothing writes into the dir afterwards.
      for (let i = 0; i < 50; i += 1) {
        const still = await manager();
        if (still === null) break;
        still.close();
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  after(async () => {
    await shutdown();
    removeDir(dir);
  });
  return { env, manager, shutdown };
}

/** One browser profile: a cookie jar keyed by cookie name for host 127.0.0.1 (browsers do not isolate cookies by port). */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  /** Opens a visualize URL: trades its token (expects the 303) and keeps the cookie. @returns the status of the trade */
  async open(url: string): Promise<number> {
    const res = await fetch(url, { redirect: 'manual', headers: this.header() });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
    await res.arrayBuffer();
    return res.status;
  }

  /** GET with every cookie of the jar. */
  async get(origin: string, pathname: string): Promise<{ status: number; body: unknown }> {
    const res = await fetch(new URL(pathname, origin), { headers: this.header() });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  }

  private header(): Record<string, string> {
    return this.cookies.size === 0 ? {} : { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
  }
}
