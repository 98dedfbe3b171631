/** Reads a Server-Sent Events stream over real HTTP (Node has no EventSource): the messages, in order. */

export type SseMessage = { id?: string; event: string; data: string };

export type SseReader = {
  messages: SseMessage[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SseMessage[]>;
  close(): void;
  status: number;
};

export async function readSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  const abort = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: abort.signal });
  const messages: SseMessage[] = [];
  const waiters: Array<() => void> = [];
  if (response.ok && response.body) {
    const decoder = new TextDecoder();
    let buffer = '';
    const reader = response.body.getReader();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const message: SseMessage = { event: 'message', data: '' };
            let hasData = false;
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) message.id = line.slice(4);
              else if (line.startsWith('event: ')) message.event = line.slice(7);
              else if (line.startsWith('data: ')) {
                message.data += line.slice(6);
                hasData = true;
              }
            }
            if (hasData) messages.push(message);
            for (const wake of waiters.splice(0)) wake();
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  }
  return {
    messages,
    status: response.status,
    async waitFor(count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${messages.length} of ${count} SSE messages arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return messages.slice(0, count);
    },
    close: () => abort.abort(),
  };
}
