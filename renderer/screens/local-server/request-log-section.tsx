/** The local server's request log, newest first, refreshed while the screen is open. */
import { Badge, NativeSelect, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { useRequestLog } from '../../data/local-server-queries';
import { localServerText } from './local-server-text';
import { Section } from './section';
import { ScrollTable } from '../../components/scroll-table';

const t = localServerText.log;
const LIMITS = [50, 100, 500];
const timeFormat = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

const statusColor = (status: number) => (status === 0 || status >= 500 ? 'red' : status >= 400 ? 'orange' : 'green');

export function RequestLogSection() {
  const [limit, setLimit] = useState('50');
  const log = useRequestLog(true, Number(limit));
  const items = log.data?.items ?? [];
  return (
    <Section title={t.title} intro={t.intro}>
      <NativeSelect label={t.limit} w={180} value={limit} onChange={(e) => setLimit(e.currentTarget.value)}
        data={LIMITS.map((n) => ({ value: String(n), label: t.latest(n) }))} />
      {log.error && <ErrorAlert error={log.error} title={t.failed} />}
      {log.isSuccess && items.length === 0 && <Text size="sm">{t.empty}</Text>}
      {items.length > 0 && (
        <ScrollTable label={t.caption} minWidth={620} maxHeight={420}>
          <Table striped withTableBorder captionSide="top" verticalSpacing={4} stickyHeader>
            <Table.Caption>{t.caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t.time}</Table.Th>
                <Table.Th scope="col">{t.method}</Table.Th>
                <Table.Th scope="col">{t.path}</Table.Th>
                <Table.Th scope="col">{t.status}</Table.Th>
                <Table.Th scope="col">{t.duration}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{timeFormat.format(Date.parse(r.at))}</Table.Td>
                  <Table.Td ff="monospace">{r.method}</Table.Td>
                  {r.path === ''
                    ? <Table.Td fs="italic">{t.unreadable}</Table.Td>
                    : <Table.Td ff="monospace" style={{ wordBreak: 'break-all' }}>{r.path}</Table.Td>}
                  <Table.Td>
                    <Badge color={statusColor(r.status)} variant="light" radius="sm" style={{ textTransform: 'none' }}>
                      {r.status === 0 ? t.dropped : r.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{`${Math.round(r.ms)} ms`}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Section>
  );
}
