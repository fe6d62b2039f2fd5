/** Choices shared by several settings pages, with the texts the console shows. */
export const updateFrequencyOptions = [
  [1, 'Never'],
  [2, 'Every 6 Hours'],
  [3, 'Every 12 Hours'],
  [4, 'Every 24 Hours'],
  [5, 'Once a Week'],
  [6, 'Once a Month'],
] as const;

export const storageStateOptions = [
  [0, 'Unknown'],
  [1, 'HDD'],
  [2, 'Disk'],
  [3, 'Deleted'],
  [4, 'Remote'],
] as const;

export const deleteTypeOptions = [
  [0, 'Delete'],
  [1, 'Delete Local Only'],
  [2, 'Mark Deleted'],
  [3, 'Mark External Storage'],
  [4, 'Mark Unknown'],
  [5, 'Mark Disk'],
] as const;

export const deleteFrequencyOptions = [
  ['0', 'Never'],
  ['7', 'Daily'],
  ['30', 'Monthly'],
  ['90', 'Quarterly'],
] as const;
