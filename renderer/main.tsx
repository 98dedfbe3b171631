import '@mantine/core/styles.css';
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { getBridge, onBridgeReconnect } from './bridge/get-bridge';
import { createQueryClient } from './data/query-client';

const queryClient = createQueryClient();
// After a break in the event stream, events may have been missed: everything on screen is fetched again.
onBridgeReconnect(() => void queryClient.invalidateQueries());

const root = document.getElementById('root');
if (root) createRoot(root).render(<StrictMode><App bridge={getBridge()} queryClient={queryClient} /></StrictMode>);
