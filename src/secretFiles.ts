import fs from 'node:fs';

/**
 * The settings that hold a secret. Each may instead be given as `<NAME>_FILE`, the path of a file
 * holding it (operations.md, "Container image"): Docker and Kubernetes secrets are files, and a
 * value kept out of the environment does not show in `docker inspect` or a process listing.
 */
const SECRET_SETTINGS = ['DATABASE_URL', 'SMTP_URL', 'OIDC_CLIENT_SECRET', 'METRICS_TOKEN'] as const;

/**
 * A copy of `env` in which every `<NAME>_FILE` of a secret is replaced by `<NAME>` holding the
 * file's content, less its trailing line break(s) (editors and `echo` add one; no secret ends in
 * one). Both forms at once, an unreadable file or an empty one is a mistake the operator hears
 * about at start: `fail` builds the error, whose message names the setting and the path, never
 * the content.
 */
export function resolveSecretFiles(env: NodeJS.ProcessEnv, fail: (message: string) => Error): NodeJS.ProcessEnv {
  const resolved: NodeJS.ProcessEnv = { ...env };
  for (const name of SECRET_SETTINGS) {
    const fileSetting = `${name}_FILE`;
    const file = env[fileSetting]?.trim();
    delete resolved[fileSetting];
    if (!file) continue;
    if (env[name]?.trim()) {
      throw fail(`${name} and ${fileSetting} are both set; set only one (${fileSetting} is the path of a file holding ${name})`);
    }
    let content;
    try {
      content = fs.readFileSync(file, 'utf8');
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
      throw fail(`${fileSetting}: cannot read ${JSON.stringify(file)} (${why})`);
    }
    const value = content.replace(/[\r\n]+$/, '');
    if (!value.trim()) throw fail(`${fileSetting}: ${JSON.stringify(file)} is empty`);
    resolved[name] = value;
  }
  return resolved;
}
