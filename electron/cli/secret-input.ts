/** Reads a secret from a muted terminal prompt, or from standard input when it is piped. Never from argv. */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';

async function readPiped(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) text += typeof chunk === 'string' ? chunk : (chunk).toString('utf8');
  return text.replace(/\r?\n$/, '');
}

function promptMuted(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  let muted = false;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input, output: sink, terminal: true });
  return new Promise((resolve) => {
    rl.question(question, (answer) => {
      rl.close();
      output.write('\n');
      resolve(answer);
    });
    muted = true;
  });
}

export async function readSecret(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string> {
  return input.isTTY ? promptMuted(question, input, output) : readPiped(input);
}

export async function readLine(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string> {
  const rl = createInterface({ input, output, terminal: Boolean(input.isTTY) });
  return new Promise((resolve) => rl.question(question, (answer) => {
    rl.close();
    resolve(answer.trim());
  }));
}
