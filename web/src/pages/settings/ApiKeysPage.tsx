import { useState } from 'react';
import { toast } from 'react-toastify';
import { Button } from '@/components/Button';
import { Panel } from '@/components/Panel';
import { Spinner } from '@/components/Spinner';
import { TextField } from '@/components/TextField';
import { useApiKeys, useCreateApiKey, useDeleteApiKey } from '@/api/apiKeys';

const TOAST_MS = 3000;

/** Settings › API Keys: the current user's keys by device; a new key is shown once, to be copied. */
export default function ApiKeysPage() {
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const remove = useDeleteApiKey();
  const [device, setDevice] = useState('');
  const [created, setCreated] = useState<{ device: string; key: string } | null>(null);

  const generate = () => {
    const name = device.trim();
    create.mutate(name, {
      onSuccess: (key) => {
        setCreated({ device: name, key });
        setDevice('');
        toast.success('API Key generated!', { autoClose: TOAST_MS });
      },
    });
  };
  const copy = async (key: string) => {
    try {
      await navigator.clipboard.writeText(key);
      toast.success('API Key copied!', { autoClose: TOAST_MS });
    } catch {
      toast.error('API Key copy failed!', { autoClose: TOAST_MS });
    }
  };

  return (
    <div className="flex w-full max-w-4xl flex-col gap-4">
      <h1 className="text-xl font-semibold">API Keys</h1>
      <Panel title="Generate API Key">
        <TextField
          label="Device Name"
          value={device}
          errors={create.error ? [create.error.message] : undefined}
          onChange={(event) => setDevice(event.target.value)}
          addon={
            <Button disabled={!device.trim()} busy={create.isPending} onClick={generate}>
              Generate
            </Button>
          }
        />
        {created && (
          <div className="flex flex-col gap-2 rounded-md border border-primary p-3 text-sm">
            <span>
              New key for <strong>{created.device}</strong>. Copy it now; it is not shown again.
            </span>
            <div className="flex flex-wrap items-center gap-2">
              <code data-testid="new-api-key" className="break-all rounded bg-background-alt px-2 py-1">
                {created.key}
              </code>
              <Button variant="secondary" onClick={() => void copy(created.key)}>
                Copy
              </Button>
            </div>
          </div>
        )}
      </Panel>
      <Panel title="Your API Keys">
        {keys.isPending ? (
          <Spinner />
        ) : keys.error ? (
          <div role="alert" className="text-sm text-danger">
            {keys.error.message}
          </div>
        ) : !keys.data.length ? (
          <div className="text-sm text-muted">No API keys!</div>
        ) : (
          <ul className="flex flex-col divide-y divide-border" aria-label="API keys">
            {keys.data.map((key) => (
              <li key={key.Device} className="flex items-center justify-between gap-3 py-2 text-sm">
                <span className="break-all">{key.Device}</span>
                <Button
                  variant="danger"
                  aria-label={`Delete ${key.Device}`}
                  busy={remove.isPending && remove.variables === key.Device}
                  onClick={() => remove.mutate(key.Device, { onSuccess: () => toast.success('API Key deleted!', { autoClose: TOAST_MS }) })}
                >
                  Delete
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
