export { LastingError } from './lasting-error';
export { createNoticeBoard, type NoticeBoard, type NoticeBoardEvents, type NoticeBoardOptions } from './notice-board';
