import readline from 'node:readline';

/**
 * The password of `user create`: from a pipe, everything up to EOF (one trailing newline
 * dropped); from a terminal, one line typed without echo. Never an argument, which would
 * land in the shell history and in `ps`.
 */
export async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks)
      .toString('utf8')
      .replace(/\r?\n$/, '');
  }
  process.stderr.write('Password: ');
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  // Keeps the typed characters off the screen; readline still handles editing keys.
  (rl as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => {};
  try {
    return await new Promise<string>((resolve) => {
      rl.once('line', resolve);
      rl.once('close', () => resolve(''));
    });
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}
