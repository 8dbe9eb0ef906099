import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { MessageResponse } from '@kb/contracts/auth';
import type { ReportTermsRequestSchema, UploadListType, UploadValidateRequest, UploadValidateResponse } from '@kb/contracts/uploads';
import type { Database } from '../../db/schema.ts';
import { badRequest } from '../../http/errors.ts';
import { UploadFileError, baseName, formatOf } from './upload-file-parser.ts';
import { UploadParserThread } from './upload-parser-thread.ts';
import { MAX_UPLOAD_TERMS, checkTerm } from './upload-terms.ts';
import type { LookupKind } from './upload-terms.ts';
import { resolveKeys } from './upload-resolver.ts';
import type { TermMatch } from './upload-resolver.ts';
import { TargetTextError } from '../targets/target-text.ts';

type ReportTermsRequest = z.infer<typeof ReportTermsRequestSchema>;

/**
 * Terms as lines of a text file: trimmed, one line each (a line break inside a term would make two
 * lines), blanks and repeats dropped, order kept.
 */
function termLines(terms: readonly string[]): string[] {
  const lines = new Set<string>();
  for (const term of terms) {
    const line = term.replace(/[\r\n]+/g, ' ').trim();
    if (line !== '') lines.add(line);
  }
  return [...lines];
}

/** The unidentified-terms download: one term per line, newline-terminated. */
export function unidentifiedTermsText(terms: readonly string[]): string {
  const lines = termLines(terms);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Uploaded lists of search terms: reading, checking against the knowledge base, reporting to curators. */
export class UploadService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Files are read off the event loop, in a worker thread. */
    private readonly reader: UploadParserThread = new UploadParserThread(),
  ) {}

  /** Spec §2/§5: parses the file, applies the list's rules and looks every well-formed term up. */
  async validate(request: UploadValidateRequest): Promise<UploadValidateResponse> {
    const fileName = baseName(request.fileName);
    let terms: string[];
    try {
      formatOf(fileName); // a wrong kind of file is named at once, without the worker
      terms = await this.reader.read(fileName, request.contentBase64);
    } catch (error) {
      if (error instanceof UploadFileError) throw badRequest(error.message);
      throw error;
    }
    if (terms.length === 0) throw badRequest(`"${fileName}" holds no search terms: every line or cell of its list is blank.`);
    if (terms.length > MAX_UPLOAD_TERMS) {
      throw badRequest(
        `"${fileName}" holds ${terms.length.toLocaleString('en-US')} different terms; a term list may have at most ${MAX_UPLOAD_TERMS.toLocaleString('en-US')}. Split it into several lists.`,
      );
    }
    return { listType: request.listType, fileName, ...(await this.checkTerms(request.listType, terms)) };
  }

  /**
   * Sorts terms into valid (with their matches), invalid (with the reason) and unidentified, in
   * upload order. In a structure-id list, CAS numbers found in the knowledge base go to
   * `casNumbers` instead of `valid` (a row keeps them apart), those not found to `unidentified`;
   * so every term is counted once in `total`.
   */
  async checkTerms(listType: UploadListType, terms: readonly string[]): Promise<Omit<UploadValidateResponse, 'listType' | 'fileName'>> {
    const checks = terms.map((term) => checkTerm(listType, term));
    const keysByKind = new Map<LookupKind, Set<string>>();
    for (const check of checks) {
      if ('invalid' in check) continue;
      const keys = keysByKind.get(check.kind) ?? new Set<string>();
      keys.add(check.key);
      keysByKind.set(check.kind, keys);
    }
    const matches = new Map<LookupKind, Map<string, TermMatch>>();
    try {
      for (const [kind, keys] of keysByKind) matches.set(kind, await resolveKeys(this.db, kind, [...keys]));
    } catch (error) {
      // Target lists are resolved as a Target row is: the same limits, said in words.
      if (error instanceof TargetTextError) throw badRequest(error.message);
      throw error;
    }

    const result: Omit<UploadValidateResponse, 'listType' | 'fileName'> = { total: terms.length, valid: [], invalid: [], unidentified: [] };
    const casNumbers: string[] = [];
    for (const check of checks) {
      if ('invalid' in check) {
        result.invalid.push({ term: check.term, reason: check.invalid });
        continue;
      }
      const match = matches.get(check.kind)?.get(check.key);
      if (!match) result.unidentified.push(check.term);
      // Spec §5: the CAS numbers of a structure-id list are kept apart from its structure ids.
      else if (check.kind === 'cas' && listType === 'strid') casNumbers.push(check.term);
      else result.valid.push({ term: check.term, ids: match.ids, label: match.label });
    }
    if (casNumbers.length > 0) result.casNumbers = casNumbers;
    return result;
  }

  /** Ends the reader thread (the server is closing). */
  close(): Promise<void> {
    return this.reader.close();
  }

  /** Keeps the caller's unidentified terms for the curation team, in one statement. */
  async reportTerms(userId: number, request: ReportTermsRequest): Promise<MessageResponse> {
    const terms = termLines(request.terms);
    if (terms.length === 0) throw badRequest('There are no terms to report: every term is blank.');
    const fileName = request.fileName ? baseName(request.fileName) || null : null;
    const comment = request.comment?.trim() || null;
    await sql`with report as (
        insert into term_reports (user_id, list_type, file_name, comment, term_count)
        values (${userId}, ${request.listType}, ${fileName}, ${comment}, ${terms.length})
        returning report_id
      )
      insert into reported_terms (report_id, position, term)
      select report.report_id, u.position, u.term
      from report, unnest(${terms}::text[]) with ordinality as u(term, position)`.execute(this.db);
    const count = terms.length === 1 ? '1 term was' : `${terms.length.toLocaleString('en-US')} terms were`;
    return { message: `Thank you: ${count} sent to the curation team.` };
  }
}
