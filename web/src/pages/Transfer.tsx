import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { ApiError, csrfHeaders, errorMessage, messageFromBody } from '../api.ts';
import { useToast } from '../components/Toasts.tsx';
import { useProjects } from '../projects.tsx';
import type { ImportReport } from '../types.ts';
import { count } from '../components/wording.ts';
import './transfer/transfer.css';

/**
 * POSTs the file as is, reporting upload progress (fetch cannot, and so neither can the generated
 * api.importOrganization): its path is written by hand, an exception test/web/apiPaths.test.ts allows.
 */
function uploadImport(file: File, onProgress: (fraction: number) => void): Promise<ImportReport> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/import');
    xhr.setRequestHeader('content-type', 'application/json');
    xhr.setRequestHeader('accept', 'application/json');
    for (const [name, value] of Object.entries(csrfHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as ImportReport);
        } catch {
          reject(new ApiError(xhr.status, 'The server answered with something that is not JSON'));
        }
      } else {
        reject(new ApiError(xhr.status, messageFromBody(xhr.status, xhr.responseText)));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'The upload failed: the server could not be reached'));
    xhr.onabort = () => reject(new ApiError(0, 'The upload was cancelled'));
    xhr.send(file);
  });
}

export function TransferPage() {
  const toast = useToast();
  const { projects, reload } = useProjects();
  const [exporting, setExporting] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [importError, setImportError] = useState<string | null>(null);

  const exportAll = async () => {
    setExporting(true);
    try {
      // A file download: the body is saved as it comes, never parsed, so this is fetch and not the
      // generated api.exportOrganization (an exception test/web/apiPaths.test.ts allows).
      const response = await fetch('/api/export', { credentials: 'same-origin', headers: { accept: 'application/json' } });
      if (!response.ok) throw new ApiError(response.status, await errorMessage(response));
      const blob = await response.blob();
      const href = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = href;
      link.download = `eventlog-export-${new Date().toISOString().slice(0, 10)}.json`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(href), 10_000);
      toast.success('Export downloaded');
    } catch (error) {
      toast.error(error, 'Export failed');
    } finally {
      setExporting(false);
    }
  };

  const importFile = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setReport(null);
    setImportError(null);
    setProgress(0);
    try {
      const result = await uploadImport(file, setProgress);
      setProgress(1);
      setReport(result);
      toast.success('Import finished');
      void reload();
    } catch (error) {
      setImportError(error instanceof Error ? error.message : String(error));
      setProgress(null);
    }
  };

  const uploading = progress !== null && report === null && importError === null;

  return (
    <main className="page page-narrow">
      <h1>Export &amp; import</h1>
      <section className="card settings-section" aria-labelledby="export-title">
        <h2 id="export-title">Export</h2>
        <p className="muted">Downloads every project of the organization, with its categories, events and insights, as one JSON file.</p>
        <button type="button" className="button button-primary" disabled={exporting} onClick={() => void exportAll()}>
          {exporting ? 'Preparing…' : 'Download export'}
        </button>
      </section>

      <section className="card settings-section" aria-labelledby="import-title">
        <h2 id="import-title">Import</h2>
        <p className="muted">
          Loads an export file into new projects: ids in the file are only labels, so importing the same file twice makes two copies. Every row is checked
          first; if one is invalid, nothing is imported.
        </p>
        <form className="inline-form" onSubmit={(event) => void importFile(event)}>
          <label className="field grow">
            <span>Export file (.json)</span>
            <input
              type="file"
              name="importFile"
              accept=".json,application/json"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setReport(null);
                setImportError(null);
                setProgress(null);
              }}
            />
          </label>
          <button type="submit" className="button button-primary" disabled={!file || uploading}>
            {uploading ? 'Importing…' : 'Import'}
          </button>
        </form>
        {progress !== null && (
          <div className="progress-line">
            <label htmlFor="import-progress">{progress < 1 ? 'Uploading' : report ? 'Done' : 'Processing on the server'}</label>
            <progress id="import-progress" max={1} value={progress} />
            <span className="small muted">{Math.round(progress * 100)}%</span>
          </div>
        )}
        {importError && (
          <p className="banner banner-error" role="alert" data-testid="import-error">
            Nothing was imported. {importError}
          </p>
        )}
        {report && (
          <div className="banner banner-success report" role="status" data-testid="import-report">
            <p>
              <strong>Imported</strong> {count(report.imported.projects, 'project')}, {count(report.imported.events, 'event')} and{' '}
              {count(report.imported.insights, 'insight')}.
            </p>
            {Object.keys(report.idMap).length > 0 && (
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">New project</th>
                    <th scope="col">Its id in the file</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(report.idMap).map(([label, id]) => (
                    <tr key={label}>
                      <td>
                        {/* The list reloads after the import; until then the new id stands in for the name. */}
                        <Link href={`/p/${id}`}>{projects?.find((project) => project.id === id)?.name ?? id}</Link>
                      </td>
                      <td className="mono">{label}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        )}
      </section>
    </main>
  );
}
