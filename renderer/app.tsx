/** The window's content. The queue, results and delivery views arrive with the UI work. */
export function App() {
  return (
    <main>
      <h1>Payroll Uploader</h1>
      <p>Run the headless command <code>payroll-uploader watch &lt;folder&gt;</code> to upload a folder of exports.</p>
    </main>
  );
}
