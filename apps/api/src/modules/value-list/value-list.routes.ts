import { contract, VALUE_LIST_IMPORT_MAX_BYTES, XLSX_MEDIA_TYPE } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { readAll } from '../../lib/streams.js';
import * as lists from './value-list.service.js';

const importMessage = (data: { dry_run: boolean; value_list: { items: unknown[] } | null }, verb: string) =>
  data.dry_run
    ? 'Preview of the import'
    : `Value list ${verb} with ${data.value_list?.items.length ?? 0} items`;

export const valueListModule = (deps: Deps) =>
  defineRoutes('valueList', contract.valueList, {
    valueLists: async () => ({ data: await lists.listValueLists(deps) }),
    valueList: async ({ params }) => ({ data: await lists.getValueList(deps.db, params.id) }),
    valueListItems: async ({ params }) => ({ data: await lists.listItems(deps, params.id) }),
    createValueList: async ({ body, actor }) => ({
      message: 'Value list created',
      data: await lists.createValueList(deps, actor, body),
    }),
    editValueList: async ({ params, body, actor }) => ({
      message: 'Value list updated',
      data: await lists.editValueList(deps, actor, params.id, body),
    }),
    createValueListFromExcel: {
      maxUploadBytes: VALUE_LIST_IMPORT_MAX_BYTES,
      handler: async ({ body, files, actor }) => {
        for await (const file of files) {
          const data = await lists.createFromExcel(deps, actor, {
            content: await readAll(file.stream),
            name: body.name,
            description: body.description,
            dryRun: body.dry_run === 'true',
          });
          return { message: importMessage(data, 'created'), data };
        }
        throw new Error('unreachable: the pipeline refuses an upload without its file');
      },
    },
    editValueListFromExcel: {
      maxUploadBytes: VALUE_LIST_IMPORT_MAX_BYTES,
      handler: async ({ params, body, files, actor }) => {
        for await (const file of files) {
          const data = await lists.editFromExcel(deps, actor, params.id, {
            content: await readAll(file.stream),
            name: body.name,
            description: body.description,
            dryRun: body.dry_run === 'true',
          });
          return { message: importMessage(data, 'updated'), data };
        }
        throw new Error('unreachable: the pipeline refuses an upload without its file');
      },
    },
    destroyValueList: async ({ params, actor }) => {
      await lists.destroyValueList(deps, actor, params.id);
      return { message: 'Value list deleted', data: null };
    },
    importTemplate: async ({ reply }) =>
      reply
        .type(XLSX_MEDIA_TYPE)
        .header('content-disposition', 'attachment; filename="value-list-template.xlsx"')
        .header('cache-control', 'private, no-cache')
        .send(await lists.importTemplate()),
  });
