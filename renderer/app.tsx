/** The window's content until the clerk's screens arrive: a live list of the newest jobs, through the bridge only. */
import { useEffect, useState } from 'react';
import type { JobView } from '../shared/bridge';
import { getBridge, onBridgeReconnect } from './bridge/get-bridge';

export function App() {
  const [jobs, setJobs] = useState<JobView[]>([]);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    const bridge = getBridge();
    const load = () => bridge.call('jobs.query', { limit: 50 }).then((w) => setJobs(w.items), (e: Error) => setProblem(e.message));
    const upsert = (job: JobView) => setJobs((list) => [job, ...list.filter((j) => j.id !== job.id)].sort((a, b) => b.id - a.id).slice(0, 50));
    // After a break in the event stream, events may have been missed: load the list again.
    const offs = [bridge.on('job', upsert), bridge.on('result', upsert), onBridgeReconnect(() => void load())];
    void load();
    return () => offs.forEach((off) => off());
  }, []);
  return (
    <main>
      <h1>Payroll Uploader</h1>
      {problem && <p role="alert">{problem}</p>}
      <ul aria-label="Jobs">
        {jobs.map((job) => (
          <li key={job.id}>{job.name}: {job.finished ? `${job.state}, filed away` : job.state}</li>
        ))}
      </ul>
    </main>
  );
}
