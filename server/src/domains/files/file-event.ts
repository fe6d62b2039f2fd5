// The ShokoEvent payload that names one file location (FileHashed, FileMatched, FileRelocated, FileDeleted, …).
export function fileEvent(fileId: number, location: { id: number; import_folder_id: number; relative_path: string }) {
  return {
    FileID: fileId,
    FileLocationID: location.id,
    ImportFolderID: location.import_folder_id,
    RelativePath: location.relative_path,
    CrossReferences: [],
  };
}
