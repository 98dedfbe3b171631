export { LastingError, type LastingNotice } from './lasting-error';
export { createNoticeBoard, type NoticeBoard, type NoticeBoardEvents, type NoticeBoardOptions } from './notice-board';
