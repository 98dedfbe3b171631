/** The webhook registration of the app's client: address and signing secret (a made one is shown once). */
import { Alert, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { useSetWebhook, useWebhook } from '../../data/local-server-queries';
import { CopyValue } from './copy-value';
import { localServerText } from './local-server-text';
import { Section } from './section';

const t = localServerText.webhook;

const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export function WebhookSection() {
  const webhook = useWebhook(true);
  const save = useSetWebhook();
  const [url, setUrl] = useState('');
  const [secret, setSecret] = useState('');
  const [urlInvalid, setUrlInvalid] = useState(false);
  const [done, setDone] = useState<'saved' | 'removed'>();
  const [newSecret, setNewSecret] = useState<string>();
  const fieldError = (name: string) => save.error?.fields?.find((f) => f.path.startsWith(name))?.message;
  const secretError = fieldError('secret');
  const urlError = urlInvalid ? t.urlInvalid : fieldError('url');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const ok = isHttpUrl(url.trim());
    setUrlInvalid(!ok);
    if (!ok) return;
    setDone(undefined);
    setNewSecret(undefined);
    save.mutate({ url: url.trim(), ...(secret ? { secret } : {}) }, {
      onSuccess: (answer) => { setDone('saved'); setNewSecret(answer.secret); setSecret(''); },
    });
  };
  const remove = () => {
    setDone(undefined);
    setNewSecret(undefined);
    save.mutate({ url: null }, { onSuccess: () => setDone('removed') });
  };

  const current = webhook.data;
  return (
    <Section title={t.title} intro={t.intro}>
      {current && (
        <Stack gap={2}>
          <Text size="sm" fw={600}>{t.current}</Text>
          <Text size="sm" ff={current.url ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>{current.url ?? t.none}</Text>
          {current.url && current.secretSet && <Text size="sm" c="dimmed">{t.secretSet}</Text>}
          {current.problem && <Alert color="red" title={t.notSent}>{current.problem}</Alert>}
        </Stack>
      )}
      <form onSubmit={submit} noValidate aria-label={t.title}>
        <Stack gap="sm" maw={640}>
          <TextInput label={t.url} placeholder={t.urlPlaceholder} value={url} type="url" onChange={(e) => setUrl(e.currentTarget.value)}
            error={urlError} />
          <PasswordInput label={t.secret} description={t.secretHelp} value={secret} onChange={(e) => setSecret(e.currentTarget.value)}
            error={secretError} autoComplete="off" />
          <Group>
            <Button type="submit" loading={save.isPending && save.variables?.url !== null}>{t.save}</Button>
            {current?.url && <Button variant="light" color="red" onClick={remove} loading={save.isPending && save.variables?.url === null}>{t.remove}</Button>}
          </Group>
        </Stack>
      </form>
      {done && <Text size="sm" role="status">{done === 'saved' ? t.saved : t.removed}</Text>}
      {newSecret && (
        <Alert color="yellow" title={t.newSecret}>
          <CopyValue label={t.secretName} value={newSecret} />
        </Alert>
      )}
      {save.error && !secretError && !urlError && <ErrorAlert error={save.error} title={t.failed} />}
    </Section>
  );
}
