/** Reads a secret from a muted terminal prompt, or from standard input when it is piped. Never from argv. */
import { createInterface, type Interface } from 'node:readline';
import { Writable } from 'node:stream';

/**
 * The person ended a prompt instead of answering it: Ctrl+C (`interrupted`), or Ctrl+D at an empty line. Nothing
 * asked for has been used yet, so nothing was stored.
 */
export class PromptCancelled extends Error {
  constructor(readonly interrupted: boolean) {
    super('cancelled: nothing was stored');
    this.name = 'PromptCancelled';
  }
}

async function readPiped(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) text += typeof chunk === 'string' ? chunk : (chunk).toString('utf8');
  return text.replace(/\r?\n$/, '');
}

/**
 * The answer to one question. readline settles only a question that is answered: Ctrl+C or Ctrl+D closes it without
 * a word, and a promise left pending would let the command end with code 0 as if all went well.
 */
function ask(rl: Interface, question: string, output: NodeJS.WritableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let interrupted = false;
    // A 'SIGINT' listener keeps readline from closing on its own; it is closed here, and told apart from Ctrl+D.
    rl.on('SIGINT', () => {
      interrupted = true;
      rl.close();
    });
    rl.once('close', () => {
      if (answered) return;
      // The cursor still stands after the prompt: what is said next starts on a line of its own.
      output.write('\n');
      reject(new PromptCancelled(interrupted));
    });
    rl.question(question, (answer) => {
      answered = true;
      rl.close();
      resolve(answer);
    });
  });
}

async function promptMuted(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<string> {
  let muted = false;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      if (!muted) output.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input, output: sink, terminal: true });
  const answer = ask(rl, question, output);
  muted = true;
  const secret = await answer;
  // The line break of Enter was muted with the secret.
  output.write('\n');
  return secret;
}

export async function readSecret(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string> {
  return input.isTTY ? promptMuted(question, input, output) : readPiped(input);
}

export async function readLine(question: string, input: NodeJS.ReadStream = process.stdin, output: NodeJS.WriteStream = process.stderr): Promise<string> {
  const rl = createInterface({ input, output, terminal: Boolean(input.isTTY) });
  return (await ask(rl, question, output)).trim();
}
