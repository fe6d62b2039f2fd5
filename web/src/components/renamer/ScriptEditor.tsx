import Editor, { loader } from '@monaco-editor/react';
import * as monaco from 'monaco-editor/editor/editor.api';
import EditorWorker from 'monaco-editor/editor/editor.worker?worker';

// Monaco comes from our own bundle, never from a CDN (the server may be offline); this module is loaded lazily.
self.MonacoEnvironment = { getWorker: () => new EditorWorker() };
loader.config({ monaco });

const LANGUAGE = 'shoko-renamer';
if (!monaco.languages.getLanguages().some((language: { id: string }) => language.id === LANGUAGE)) {
  monaco.languages.register({ id: LANGUAGE });
  monaco.languages.setMonarchTokensProvider(LANGUAGE, {
    ignoreCase: true,
    tokenizer: {
      root: [
        [/\/\/.*$/, 'comment'],
        [/%[a-z]+/, 'variable'],
        [/\b(IF|THEN|ELSE|DO|ADD|REPLACE|FAIL|SET|AND|OR|NOT)\b/, 'keyword'],
        [/'[^']*'/, 'string'],
        [/\d+/, 'number'],
      ],
    },
  });
}

interface ScriptEditorProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** The renamer script editor (Monaco), with the script language's tags, keywords and strings highlighted. */
export default function ScriptEditor({ label, value, onChange }: ScriptEditorProps) {
  return (
    <div className="h-80 overflow-hidden rounded-md border border-border focus-within:border-primary" data-testid="script-editor">
      <Editor
        value={value}
        language={LANGUAGE}
        theme="vs-dark"
        onChange={(next) => onChange(next ?? '')}
        options={{
          ariaLabel: label,
          minimap: { enabled: false },
          fontSize: 12,
          lineNumbers: 'on',
          scrollBeyondLastLine: false,
          wordWrap: 'off',
          tabSize: 2,
          automaticLayout: true,
        }}
      />
    </div>
  );
}
