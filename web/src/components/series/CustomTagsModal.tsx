import { mdiPencil } from '@mdi/js';
import { useState } from 'react';
import type { Tag } from '@shoko-ts/contract';
import { formErrors } from '@/api/client';
import {
  useAddSeriesUserTags,
  useCreateUserTag,
  useRemoveSeriesUserTags,
  useSeriesTags,
  useUpdateUserTag,
  useUserTags,
} from '@/api/series';
import { Button } from '@/components/Button';
import { Icon } from '@/components/Icon';
import { Modal } from '@/components/Modal';
import { SearchBox } from '@/components/SearchBox';
import { QueryContent } from '@/components/QueryContent';
import { TextField } from '@/components/TextField';

type Mode = { kind: 'browse' } | { kind: 'create' } | { kind: 'edit'; tag: Tag };

/**
 * Custom Tags (SPEC §4/§5): browse user tags and add or remove them from the series, edit one (Save needs a changed
 * name or description), or create one (needs a name; the new tag is then added to the series).
 */
export function CustomTagsModal({ seriesId, open, onClose }: { seriesId: number; open: boolean; onClose: () => void }) {
  const [mode, setMode] = useState<Mode>({ kind: 'browse' });
  const close = () => {
    setMode({ kind: 'browse' });
    onClose();
  };
  return (
    <Modal open={open} onClose={close} title="Custom Tags" size="md">
      {mode.kind === 'browse' ? (
        <BrowseTags
          seriesId={seriesId}
          onCreate={() => setMode({ kind: 'create' })}
          onEdit={(tag) => setMode({ kind: 'edit', tag })}
          onClose={close}
        />
      ) : (
        <TagForm
          key={mode.kind === 'edit' ? mode.tag.ID : 'new'}
          seriesId={seriesId}
          tag={mode.kind === 'edit' ? mode.tag : null}
          onDone={() => setMode({ kind: 'browse' })}
        />
      )}
    </Modal>
  );
}

function BrowseTags({
  seriesId,
  onCreate,
  onEdit,
  onClose,
}: {
  seriesId: number;
  onCreate: () => void;
  onEdit: (tag: Tag) => void;
  onClose: () => void;
}) {
  const all = useUserTags(true);
  const seriesTags = useSeriesTags(seriesId);
  const add = useAddSeriesUserTags(seriesId);
  const remove = useRemoveSeriesUserTags(seriesId);
  const [search, setSearch] = useState('');
  const onSeries = new Set((seriesTags.data ?? []).filter((t) => t.Source === 'User').map((t) => t.ID));
  const query = search.trim().toLowerCase();
  const list = (all.data?.List ?? []).filter((tag) => !query || tag.Name.toLowerCase().includes(query));
  const busy = add.isPending || remove.isPending;
  return (
    <>
      <SearchBox label="Search custom tags" value={search} onChange={setSearch} className="" onPanel />
      <div className="flex max-h-80 flex-col gap-1 overflow-y-auto" aria-label="Custom tag list" role="list">
        <QueryContent
          query={all}
          empty={
            list.length === 0 && (
              <p className="py-4 text-center text-muted">{query ? 'No tags match the search.' : 'No custom tags yet.'}</p>
            )
          }
        >
          {() =>
            list.map((tag) => {
              const present = onSeries.has(tag.ID);
              return (
                <div key={tag.ID} role="listitem" className="flex items-center gap-2 rounded-md px-2 py-1.5 hover:bg-panel-alt">
                  <span className="min-w-0 flex-1 truncate font-semibold" title={tag.Description || undefined}>
                    {tag.Name}
                  </span>
                  <Button variant="ghost" className="px-2 py-1" aria-label={`Edit ${tag.Name}`} onClick={() => onEdit(tag)}>
                    <Icon path={mdiPencil} size={0.7} />
                  </Button>
                  <Button
                    variant={present ? 'danger' : 'secondary'}
                    className="px-3 py-1"
                    disabled={busy}
                    aria-label={`${present ? 'Remove' : 'Add'} ${tag.Name}`}
                    onClick={() => (present ? remove : add).mutate([tag.ID])}
                  >
                    {present ? 'Remove' : 'Add'}
                  </Button>
                </div>
              );
            })
          }
        </QueryContent>
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onCreate}>
          Create New Tag
        </Button>
        <Button onClick={onClose}>Close</Button>
      </div>
    </>
  );
}

function TagForm({ seriesId, tag, onDone }: { seriesId: number; tag: Tag | null; onDone: () => void }) {
  const [name, setName] = useState(tag?.Name ?? '');
  const [description, setDescription] = useState(tag?.Description ?? '');
  const create = useCreateUserTag(seriesId);
  const update = useUpdateUserTag(seriesId);
  const add = useAddSeriesUserTags(seriesId);
  const mutation = tag ? update : create;
  const errors = formErrors(mutation.error);
  const trimmed = name.trim();
  const changed = tag ? trimmed !== tag.Name || description.trim() !== (tag.Description ?? '') : true;
  const canSave = trimmed !== '' && changed && !mutation.isPending && !add.isPending;
  const payload = { name: trimmed, description: description.trim() || null };
  const save = () => {
    if (tag) update.mutate({ id: tag.ID, ...payload }, { onSuccess: onDone });
    else create.mutate(payload, { onSuccess: (created) => add.mutate([created.ID], { onSuccess: onDone }) });
  };
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (canSave) save();
      }}
    >
      <TextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        errors={errors.fields.name}
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the form opens to type a new tag name; focus starts in that field
        autoFocus
      />
      <TextField
        label="Description"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
        errors={errors.fields.description}
      />
      {errors.general && <p className="text-sm text-danger">{errors.general}</p>}
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={!canSave} busy={mutation.isPending || add.isPending}>
          {tag ? 'Save' : 'Create'}
        </Button>
      </div>
    </form>
  );
}
