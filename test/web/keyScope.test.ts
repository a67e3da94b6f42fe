// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
// The API keys page reads browser origins as the server does (web/src/pages/apiKeys/keyScope.ts
// beside src/features/keys/keyScope.ts): same verdict, same normalized origin, same words.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Ctx } from '../../src/context.ts';
import { checkKeyScope } from '../../src/features/keys/keyScope.ts';
import { projectNames, readOrigins } from '../../web/src/pages/apiKeys/keyScope.ts';
import type { Project } from '../../web/src/types.ts';

/** The server's answer for origins alone; without projects it reads nothing of ctx. */
async function serverVerdict(origins: string[]): Promise<{ origins: string[] | null } | { error: string }> {
  try {
    return { origins: (await checkKeyScope({} as Ctx, { access: 'ingest', origins })).origins };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

const CASES = [
  'https://app.example.com',
  'HTTPS://App.Example.COM',
  'https://app.example.com:443',
  'http://127.0.0.1:8080',
  'http://localhost:3000',
  'https://app.example.com/path',
  'https://app.example.com?x=1',
  'https://user@app.example.com',
  'ftp://app.example.com',
  'app.example.com',
  'https://',
  'https://[::1]:8443',
  'https://exa mple.com',
];

describe('browser origins on the API keys page', () => {
  for (const raw of CASES) {
    it(`agrees with the server on ${JSON.stringify(raw)}`, async () => {
      assert.deepEqual(readOrigins(raw), await serverVerdict([raw]));
    });
  }

  it('reads one origin a line, skipping blank lines and repeats; none is null; 21 is too many', async () => {
    assert.deepEqual(readOrigins(' https://a.example.com \n\nhttps://A.example.com\nhttp://b.example.com:81\n'), {
      origins: ['https://a.example.com', 'http://b.example.com:81'],
    });
    assert.deepEqual(readOrigins(' \n '), { origins: null });
    const many = Array.from({ length: 21 }, (_, index) => `https://site${index}.example.com`);
    assert.deepEqual(readOrigins(many.join('\n')), await serverVerdict(many));
  });

  it('drops the one trailing slash an address bar shows before sending, so the server gets an origin (issue 49, point 20)', async () => {
    assert.deepEqual(readOrigins('http://localhost:5173/'), { origins: ['http://localhost:5173'] });
    assert.deepEqual(await serverVerdict(['http://localhost:5173']), { origins: ['http://localhost:5173'] });
    assert.ok('error' in readOrigins('http://localhost:5173//'), 'a path is still refused');
  });

  it('names the projects of a key, and says when one is gone', () => {
    const projects = [
      { id: 'p1', name: 'Shop' },
      { id: 'p2', name: 'Blog' },
    ] as Project[];
    assert.equal(projectNames(null, projects), 'Every project');
    assert.equal(projectNames(['p2', 'p1'], projects), 'Blog, Shop');
    assert.equal(projectNames(['p1', 'gone'], projects), 'Shop, a deleted project');
  });
});
