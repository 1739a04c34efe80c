// UI strings in Korean and English. The first of the browser's languages
// that we have strings for wins; English is the fallback.

const strings = {
  en: {
    appName: 'Diary',
    notices: 'Messages',
    newEntry: 'New entry',
    back: 'Back to the list',
    moreFor: (title) => `More for “${title}”`,
    share: 'Share',
    delete: 'Delete',
    cancel: 'Cancel',
    trash: 'Trash',
    trashOffline: 'The trash cannot be opened while offline.',
    editorOffline: 'The editor has not been kept on this device yet, so it opens once the connection is back.',
    account: 'Account',
    search: 'Search',
    searchPlaceholder: 'Search the diary',
    noResults: 'Nothing found.',
    untitled: 'Untitled',
    empty: 'Your diary is empty.',
    emptyInvite: 'Write about today: what happened, and how it felt.',
    writeFirst: 'Write the first entry',
    orSample: 'Or look around a sample diary first.',
    chooseEntry: 'Choose an entry to read, or write a new one.',
    today: 'Today',
    yesterday: 'Yesterday',
    shortcut: (action, key) => `${action} (${key})`,
    loadSample: 'Load the sample diary',
    loadFailed: 'Could not reach the diary. Check the connection.',
    tryAgain: 'Try again',
    confirmDelete: 'Delete this entry?',
    movedToTrash: 'Moved to the trash.',
    emptiedToTrash: 'The empty entry was moved to the trash.',
    undo: 'Undo',
    copied: 'Copied to the clipboard',
    shareFailed: 'Could not share or copy this entry.',
    restore: 'Restore',
    saveFailed: 'Not saved yet. Retrying… Your writing is kept in this browser.',
    diskFull: "The server's disk is full, so this is not saved yet. Your writing is kept in this browser and sent once there is room; nothing saved before is lost.",
    tooLarge: 'This entry is too long to save. Shorten it; your writing is kept in this browser.',
    saved: 'Saved.',
    offline: 'Could not reach the diary. What you write is kept in this browser and sent when the connection is back.',
    listOffline: 'Your entries will appear here when the connection is back.',
    keptForWriter: 'Changes kept for their writer are sent when they log in again.',
    listStale: 'Could not reach the diary. These are the entries as last shown.',
    moreFailed: 'Could not load more entries.',
    waiting: 'Not sent yet',
    starred: 'Starred',
    tags: 'Tags',
    actionsFor: (title) => `Actions for “${title}”`,
    locationNeeded: 'Weather needs your location.',
    updateReady: 'A new version of the diary is ready.',
    updateReload: 'Reload for the new version',
    // The providers' own words are English; these name each kind of weather.
    conditions: {
      clear: 'Clear', clouds: 'Clouds', rain: 'Rain', drizzle: 'Drizzle',
      snow: 'Snow', thunderstorm: 'Thunderstorm', mist: 'Mist',
    },
  },
  ko: {
    appName: '일기장',
    notices: '알림',
    newEntry: '새 일기',
    back: '목록으로',
    moreFor: (title) => `“${title}” 더 보기`,
    share: '공유',
    delete: '삭제',
    cancel: '취소',
    trash: '휴지통',
    trashOffline: '오프라인 상태에서는 휴지통을 열 수 없어요.',
    editorOffline: '이 기기에 아직 편집기가 저장되지 않아서, 다시 연결되면 열 수 있어요.',
    account: '계정',
    search: '검색',
    searchPlaceholder: '일기 검색',
    noResults: '찾은 일기가 없어요.',
    untitled: '제목 없음',
    empty: '아직 쓴 일기가 없어요.',
    emptyInvite: '오늘 있었던 일과 그때의 마음을 적어 보세요.',
    writeFirst: '첫 일기 쓰기',
    orSample: '먼저 샘플 일기를 둘러볼 수도 있어요.',
    chooseEntry: '읽을 일기를 고르거나 새 일기를 써 보세요.',
    today: '오늘',
    yesterday: '어제',
    shortcut: (action, key) => `${action} (${key})`,
    loadSample: '샘플 일기 불러오기',
    loadFailed: '일기장에 연결하지 못했어요. 연결을 확인해 주세요.',
    tryAgain: '다시 시도',
    confirmDelete: '정말로 삭제하시겠어요?',
    movedToTrash: '휴지통으로 옮겼어요.',
    emptiedToTrash: '빈 일기를 휴지통으로 옮겼어요.',
    undo: '실행 취소',
    copied: '클립보드에 복사했어요',
    shareFailed: '이 일기를 공유하거나 복사하지 못했어요.',
    restore: '복원',
    saveFailed: '아직 저장하지 못했어요. 다시 시도하는 중이에요. 쓴 글은 이 브라우저에 보관돼 있어요.',
    diskFull: '서버의 디스크가 가득 차서 아직 저장하지 못했어요. 쓴 글은 이 브라우저에 보관했다가 공간이 생기면 저장할게요. 전에 저장한 글은 그대로 있어요.',
    tooLarge: '일기가 너무 길어 저장할 수 없어요. 줄여 주세요. 쓴 글은 이 브라우저에 보관돼 있어요.',
    saved: '저장했어요.',
    offline: '일기장에 연결하지 못했어요. 쓰는 글은 이 브라우저에 보관했다가 다시 연결되면 저장할게요.',
    listOffline: '다시 연결되면 일기가 여기에 나타나요.',
    keptForWriter: '보관된 글은 쓴 사람이 다시 로그인하면 저장돼요.',
    listStale: '일기장에 연결하지 못했어요. 마지막으로 보인 일기예요.',
    moreFailed: '일기를 더 불러오지 못했어요.',
    waiting: '아직 보내지 않음',
    starred: '즐겨찾기',
    tags: '태그',
    actionsFor: (title) => `“${title}” 작업`,
    locationNeeded: '날씨를 기록하려면 위치 권한이 필요해요.',
    updateReady: '일기장의 새 버전이 준비됐어요.',
    updateReload: '새 버전으로 다시 불러오기',
    conditions: {
      clear: '맑음', clouds: '흐림', rain: '비', drizzle: '이슬비',
      snow: '눈', thunderstorm: '뇌우', mist: '안개',
    },
  },
};

const languages = navigator.languages?.length ? navigator.languages : [navigator.language || 'en'];

export const lang =
  languages.map((l) => l.toLowerCase().split('-')[0]).find((l) => l in strings) ?? 'en';

export const t = strings[lang];

// Dates follow the browser's own language list, as the iOS app's
// DateFormatter followed the device locale: "2020년 12월 22일", "December 22, 2020".
const longDate = new Intl.DateTimeFormat(languages, { dateStyle: 'long' });

export function formatDate(iso) {
  return longDate.format(iso ? new Date(iso) : new Date());
}

// The journal's own forms of a date, in the browser's language and time zone: the entry's page
// says "Tuesday, December 22, 2020" over "9:41 PM"; the list puts its rows under "December
// 2020", each beside its day "22" and "Tue".
const formats = {
  full: new Intl.DateTimeFormat(languages, { dateStyle: 'full' }),
  time: new Intl.DateTimeFormat(languages, { timeStyle: 'short' }),
  month: new Intl.DateTimeFormat(languages, { year: 'numeric', month: 'long' }),
  day: new Intl.DateTimeFormat(languages, { day: 'numeric' }),
  weekday: new Intl.DateTimeFormat(languages, { weekday: 'short' }),
};

/** The date in one of the forms above: 'full', 'time', 'month', 'day' or 'weekday'. */
export function formatAs(form, iso) {
  // The day alone, as a number: Korean's "22일" says its 일 again beside the weekday.
  if (form === 'day') return formats.day.formatToParts(new Date(iso)).find((p) => p.type === 'day').value;
  return formats[form].format(new Date(iso));
}

/** Where the entry's day and month are in the writer's calendar: "2020-12" and "2020-12-22". */
export function localDay(iso) {
  const d = new Date(iso);
  const month = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
  return { month, day: `${month}-${String(d.getDate()).padStart(2, '0')}` };
}

/** "Today" or "Yesterday" for an entry of this day or the one before, else null. */
export function nearDay(iso) {
  const { day } = localDay(iso);
  const now = new Date();
  if (day === localDay(now).day) return t.today;
  const before = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1, 12);
  return day === localDay(before).day ? t.yesterday : null;
}
