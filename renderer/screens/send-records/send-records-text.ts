import { componentsText } from '../../components/components-text';

/** The JSON panel's choice of kind, named as it reads by the messages that ask the clerk to choose the other one. */
const KIND_CHOICE = { question: 'The records are', census: 'New hires and changes (census)', receipt: 'Receipts' } as const;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Every word the Send records screen shows, in one place for a later translation. */
export const sendRecordsText = {
  title: 'Send records',
  intro: 'Send a few records straight to the service, without a CSV file: new hires, a termination or payments.',
  tabsLabel: 'What to send',
  dismiss: 'Dismiss',
  tabs: {
    census: 'New hires',
    termination: 'Termination',
    receipts: 'Receipts',
    json: 'JSON file',
  },
  fields: {
    // One set of field labels for the whole app: History's problem tables name fields as these forms do.
    labels: componentsText.fieldLabels,
    hints: {
      employeeRegistration: 'The employee number in your payroll system (up to 30 characters).',
      ssn: 'Written 123-45-6789.',
      amount: 'More than 0, with a point for cents: 125.50',
      grossAnnualSalary: 'A point for cents: 52000.00',
    },
    choices: {
      ACTIVE: 'Active',
      ON_LEAVE: 'On leave',
      TERMINATED: 'Terminated',
      WEEKLY: 'Weekly',
      BIWEEKLY: 'Every two weeks',
      SEMIMONTHLY: 'Twice a month',
      MONTHLY: 'Monthly',
      FULL_TIME: 'Full time',
      PART_TIME: 'Part time',
      yes: 'Yes',
      no: 'No',
    },
    notGiven: 'Not given',
    choose: 'Choose…',
    required: 'required',
    requiredNote: 'Fields marked * are required.',
  },
  census: {
    intro: 'Fill in one card per new employee. Add as many people as you need and send them together.',
    person: (n: number) => `Person ${n}`,
    addPerson: 'Add another person',
    remove: 'Remove this person',
    removePerson: (n: number) => `Remove this person (person ${n})`,
    moreFields: 'Pay details (optional)',
    send: (n: number) => (n === 1 ? 'Send 1 person' : `Send ${n} people`),
  },
  termination: {
    intro: 'Tell the service that an employee has left. Use the employee registration and hire date it already knows.',
    statusNote: 'Employee status will be sent as Terminated.',
    who: 'The employee',
    send: 'Send termination',
  },
  receipts: {
    intro: 'One row per payment. Add rows, or paste rows copied from a spreadsheet.',
    rowHeader: '#',
    allRequired: 'Every column is required.',
    row: (n: number) => `Receipt ${n}`,
    rowWord: 'Receipt',
    addRow: 'Add a row',
    remove: 'Remove',
    removeRow: (n: number) => `Remove receipt ${n}`,
    actions: 'Actions',
    send: (n: number) => (n === 1 ? 'Send 1 receipt' : `Send ${n} receipts`),
  },
  paste: {
    open: 'Paste from a spreadsheet',
    label: 'Rows copied from a spreadsheet',
    help: (columns: string) =>
      `Copy the rows in your spreadsheet and paste them here. With a header row, columns may come in any order; without one, they must be in this order: ${columns}.`,
    add: 'Add these rows',
    cancel: 'Cancel',
    empty: 'Paste at least one row first.',
    added: (n: number) => (n === 1 ? '1 row added. Check it, then send.' : `${n} rows added. Check them, then send.`),
    problemsTitle: 'These rows were not added',
    keptNote: 'They are still in the box "Rows copied from a spreadsheet", so nothing is lost: correct them there, then add them again.',
    /** The whole paste was refused (the form had no room for it): nothing in it needs correcting. */
    keptWhole: 'They are all still in the box "Rows copied from a spreadsheet", so nothing is lost.',
    /** Rows pasted into a cell while the box still held rows not added: the box holds one paste at a time. */
    cellPasteRefusedTitle: 'The rows you pasted were not added',
    cellPasteRefused:
      'This box still holds rows that were not added, and it holds one paste at a time: add them ("Add these rows", after correcting them if need be) or delete them from the box, then paste your new rows again.',
  },
  json: {
    intro: 'Load records from a JSON file (an array of census or receipt records, up to 5 MB), or paste the JSON text. The records go into the form, where you can check them before sending.',
    kind: KIND_CHOICE.question,
    kindCensus: KIND_CHOICE.census,
    kindReceipt: KIND_CHOICE.receipt,
    file: 'JSON file',
    filePlaceholder: 'Choose a .json file',
    text: 'Or paste JSON here',
    load: 'Put the records in the form',
    loadedInto: { census: 'the new hires form', receipt: 'the receipts grid' },
    /** `after`: the records that were in the form already; the loaded ones come after them. */
    loaded: (n: number, where: string, after = 0) => `${after === 0
      ? `${n === 1 ? '1 record was' : `${n} records were`} put in ${where} from the JSON.`
      : `${n === 1 ? '1 record' : `${n} records`} from the JSON ${n === 1 ? 'was' : 'were'} added to ${where}, after the ${after} already in it.`
    } Check ${n === 1 ? 'it' : 'them'}, then send.`,
    problemsTitle: 'The JSON was not loaded',
    empty: 'Choose a file or paste JSON first.',
  },
  /** Shown beside Add another person / Add a row once the form holds `MAX_FORM_RECORDS` rows. */
  formIsFull: (max: number) => `The form holds ${max} records, the most it takes: send them first, then add more.`,
  sending: 'Sending…',
  clearAll: 'Start over',
  /** After the clerk pressed Send and the check stopped it. */
  problemsTitle: 'Nothing was sent yet',
  problemsIntro: 'Fix the fields marked in red, then send again.',
  /** Before any send: pasted or loaded rows are checked at once, and a date that was not kept is marked. */
  checkTitle: 'Some fields need fixing before sending',
  checkIntro: 'Fix the fields marked in red, then send.',
  serviceProblemsTitle: 'The service refused the batch',
  serviceProblemsIntro: 'Nothing from this batch was imported. Fix the fields marked in red, then send again.',
  recordProblem: (label: string, message: string) => `${label}: ${message}`,
  moreProblems: (n: number) => `and ${n} more`,
  repeatedField: (value: string, other: string) => `${value} is also given for ${other}; each must be different in one batch`,
  repeatedReceipt: (other: string) => `is the same receipt as ${other} (same employee registration, payment date and amount)`,
  /** Nothing reached the service, or it said it took nothing: the records can go again once the cause is put right. */
  notSentTitle: 'The batch was not sent',
  notSentNext: 'Nothing was imported. Your records are still in the form.',
  /** The service may hold the batch (no answer after it went out): sending it again could import it twice. */
  unknownTitle: 'This batch may have reached the service',
  /** The same warning once a later send was refused: that refusal is shown below it, and speaks of another batch. */
  earlierUnknownTitle: 'An earlier batch may have reached the service',
  /** Under the core's reason, which says already what to check before sending again. */
  unknownKept: 'Your records are still in the form.',
  /** Under an error of the app's own (its connection to its background service broke): the send's fate is unknown. */
  unknownNext: 'Your records are still in the form. The service may have imported them: look at its imports, or ask your '
    + 'service provider, before sending them again, since a second send would import them twice.',
  notConfigured: 'No connection is set up yet. Open Settings, enter the service address and credentials, then try again.',
  successTitle: 'Sent',
  success: (records: number, importId: string) =>
    `The service received ${records === 1 ? '1 record' : `${records} records`}. Import id: ${importId}.`,
  // The app learns only that the batch arrived: the service reports each record's result to the company's webhook.
  successNext: 'The service checks each record next and reports which it accepted to your company\'s webhook (ask your service provider '
    + 'with the import id if a record is missing). The History screen keeps this batch under Sent records.',
  /** Browser mode: the drafts live only as long as the page, so a reload asks first (unsent-rows.ts). */
  unsent: {
    reloadTitle: 'Reload and lose the rows not sent?',
    reload: (n: number) => `Send records holds ${n === 1 ? '1 row' : `${n} rows`} not sent yet (in its forms, or in its boxes for pasted rows and JSON). They are kept only while `
      + 'this page is open: reloading it throws them away. If the background service comes back as it was, the page '
      + 'reconnects by itself and you can send them then. If Payroll Uploader was stopped and started again, this page '
      + 'stays signed out and cannot send them: note them before you reload.',
    keep: 'Keep them',
    reloadAnyway: 'Reload and lose them',
  },
  copyImportId: 'Copy import id',
  sendMore: 'Send more records',
  /** The paste and JSON checks. */
  check: {
    notADate: (value: string) => `"${value}" is not a date; write it as YYYY-MM-DD (2026-03-15) or with slashes (15/03/2026 or 03/15/2026)`,
    dateInWords: (year: number, month: number, day: number) => `${day} ${MONTHS[month - 1] ?? month} ${year}`,
    /**
     * A slash date that could be read either way (05/03/2026), and how it was: `read` and `other` in words, `shownBy`
     * a date of the same column whose order is plain (31/03/2026), else the order is the browser's.
     */
    readAs: (value: string, read: string, other: string, order: 'day-first' | 'month-first', shownBy?: string) =>
      `"${value}" was read as ${read} (${order === 'day-first' ? 'day' : 'month'} first, ${shownBy
        ? `as ${shownBy} in the same column shows`
        : 'the way this browser writes dates'}). If it is ${other}, correct the date.`,
    /** A pasted column with dates written day first and month first: which ones are turned around cannot be told. */
    mixedDateOrders: (value: string, dayFirst: string, monthFirst: string) =>
      `"${value}" was not read: this column has dates with the day first (${dayFirst}) and with the month first `
      + `(${monthFirst}), so which is which cannot be told. Write all its dates one way, or as YYYY-MM-DD (2026-03-15), then add the rows again`,
    /** Written like a date, but no such day exists: `why` is one of the reasons below. */
    noSuchDate: (value: string, why: string) => `"${value}" is not a real date: ${why}`,
    monthHasDays: (month: number, year: number, days: number) => `${MONTHS[month - 1] ?? month} ${year} has ${days} days`,
    noMonth: (month: number) => `there is no month ${month}`,
    noDayZero: 'there is no day 0',
    /** A date input of the form holding a day that does not exist (30 February) or only part of a date. */
    notARealDate: 'is not a real date: there is no such day in that month, or part of the date is missing. Check the day, month and year.',
    /** The same, found when the clerk left the screen: the browser gives no value to keep, so the field is empty. */
    dateNotKept: 'was emptied: what was typed was not a real date, so it could not be kept. Type the date again.',
    notAChoice: (value: string, choices: string[]) => `"${value}" is not one of ${choices.join(', ')}`,
    row: (n: number) => `Row ${n}`,
    record: (n: number) => `Record ${n}`,
    unknownColumns: (names: string[]) => `The first row looks like a header, but these columns are not known: ${names.join(', ')}`,
    repeatedColumns: (names: string[]) => `These columns appear twice in the header row: ${names.join(', ')}`,
    tooManyCells: (n: number, max: number) => `has ${n} cells, but there are only ${max} columns`,
    noRows: 'No rows were found in the pasted text.',
    notJson: (why: string) => `This is not valid JSON (${why}).`,
    /** `why`: the service's own words for a number it cannot hold exactly (shared/inexact-numbers.ts), naming its place. */
    inexactNumber: (why: string) => `The service would refuse this JSON as written: ${why}.`,
    notArray: 'The JSON must be a list of records: [ { … }, { … } ].',
    emptyArray: 'The list holds no records.',
    notObject: 'is not a record (it must be { … })',
    unknownFields: (names: string[]) => `has unknown field(s): ${names.join(', ')}`,
    /**
     * Every record has fields of the other kind only (receipts loaded as census, or census as receipts): the way to
     * send them is the other choice of "The records are", so the clerk is told that rather than given unknown fields.
     */
    wrongKind: (chosen: 'census' | 'receipt', fields: string[]) => `${chosen === 'census'
      ? 'These look like receipt records, not new hires'
      : 'These look like census records (new hires and changes), not receipts'}: they have ${fields.join(', ')}. `
      + `Choose "${KIND_CHOICE[chosen === 'census' ? 'receipt' : 'census']}" under "${KIND_CHOICE.question}", then put them in the form again.`,
    /** One record of the other kind in a list of the chosen kind: a batch is one kind, so it needs a list of its own. */
    otherKindRecord: (chosen: 'census' | 'receipt', fields: string[]) => `${chosen === 'census'
      ? `looks like a receipt record (it has ${fields.join(', ')}). One list holds one kind of record: put receipts in a list of their own`
      : `looks like a census record (it has ${fields.join(', ')}). One list holds one kind of record: put new hires in a list of their own`}`
      + ` and load it with "${KIND_CHOICE[chosen === 'census' ? 'receipt' : 'census']}" chosen.`,
    mustBeText: 'must be text in quotes',
    mustBeNumber: 'must be a number',
    mustBeTrueFalse: 'must be true or false',
    /** JSON values the service would refuse, worded for the JSON the clerk has in front of them. */
    json: {
      /** A number or true/false written in quotes: the service takes text there as text, not as the number. */
      quoted: (what: string, value: string) => `must be ${what}, written without quotes (${JSON.stringify(value)} is text)`,
      aNumber: 'a number',
      trueOrFalse: 'true or false',
      notADate: (value: string) => `"${value}" is not a date written YYYY-MM-DD (year first, like 2026-03-15)`,
      dateInQuotes: 'must be a date in quotes, written YYYY-MM-DD (like "2026-03-15")',
      choiceInQuotes: (choices: readonly string[]) => `must be one of ${choices.map((v) => `"${v}"`).join(', ')}`,
      /** A value the schema takes but the form's input would change (a number the form would write another way). */
      notShown: 'cannot be shown in the form as written; write it as a plain number, like 37.5',
    },
    /**
     * Typed into a number input, and no number as written. Commas are refused rather than read: "1,234" may be a
     * thousand or a decimal, and the field would show one thing while another is sent (docs/ui.md).
     */
    typedMoney: 'is not a number as written: use a point for cents, not a comma, and no thousands separator, spaces or $ sign, like 1234.56',
    typedWhole: 'is not a number as written: write a whole number with digits only, like 26',
    typedHours: 'is not a number as written: use digits, with a point for part of an hour (not a comma), like 37.5',
    /**
     * A date input holding a year of more or fewer than 4 digits (the year 26 typed as 0026, or 202612), or one
     * below 1000 (202 typed for 2026, which the input pads to 0202: the clerk typed 3 digits).
     */
    typedYear: (year: string) => `has the year ${year}: check the year, it is written with 4 digits (like 2026)`,
    /** A single value pasted into a date input that the spreadsheet-paste parser cannot read: `why` says what it is. */
    pasteNotRead: (why: string) => `was not pasted: ${why}`,
    /** Pasted or loaded rows that would take the form past its most: none of them is added. */
    formFull: (inForm: number, adding: number, max: number) => (inForm === 0
      ? `These are ${adding} records; one form takes at most ${max}. Send large batches as a CSV file through the watched folder.`
      : `The form already holds ${inForm === 1 ? '1 record' : `${inForm} records`}; ${adding} more would make ${inForm + adding}, and one form takes at most ${max}. `
        + 'Send the records in the form first (or press Start over), then add these; or send large batches as a CSV file through the watched folder.'),
    tooMany: (n: number, max: number) =>
      `The file holds ${n} records; the form takes at most ${max}. Send large batches as a CSV file through the watched folder.`,
    tooBig: 'The file is larger than 5 MB, the limit of a direct import. Send it as a CSV file through the watched folder.',
  },
} as const;
