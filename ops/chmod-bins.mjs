// Marks the compiled bin entry points executable (tsc writes 0644), so `npx docforge-mcp` works.
import { chmodSync, existsSync } from 'node:fs';
for (const file of ['apps/mcp-server/dist/src/main.js', 'apps/cli/dist/src/main.js']) {
  if (existsSync(file)) chmodSync(file, 0o755);
}
