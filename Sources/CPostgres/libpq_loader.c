// SPDX-License-Identifier: Apache-2.0
// libpq_loader.c: libpq is opened at the first PostgreSQL catalog (dynamic_library.h), not linked.
//
// Each libpq function the catalog calls is defined here under libpq's own name and forwards to
// the loaded library, so the Swift code calls libpq as it always has. The compiler checks every
// forwarder against libpq-fe.h's declaration, and TK_DL_FIELD types the table from the same
// declarations, so no signature is written down twice. Before `tk_pq_ready` has succeeded a
// forwarder does nothing and returns a failure value (NULL, -1, CONNECTION_BAD); the catalog
// calls `tk_pq_ready` before its first libpq call, so that is never reached in practice.
#include "CPostgres.h"

#include <dynamic_library.h>

#define TK_PQ_ENTRY_POINTS(X)                                                                     \
    X(PQbackendPID) X(PQclear) X(PQcmdTuples) X(PQconnectdb) X(PQconninfoFree) X(PQconninfoParse) \
    X(PQconsumeInput) X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQexecPrepared) X(PQfinish)   \
    X(PQfreemem) X(PQftype) X(PQgetisnull) X(PQgetlength) X(PQgetResult) X(PQgetvalue)            \
    X(PQnotifies) X(PQntuples) X(PQprepare) X(PQputCopyData) X(PQputCopyEnd) X(PQreset)           \
    X(PQresultErrorField) X(PQresultErrorMessage) X(PQresultStatus) X(PQsetClientEncoding)        \
    X(PQsetNoticeProcessor) X(PQsocket) X(PQstatus) X(PQtransactionStatus)

TK_DL_LOADER(tk_pq, "libpq.so.5", TK_PQ_ENTRY_POINTS)

int tk_pq_ready(char *err, unsigned long err_len) { return tk_pq_get(err, err_len) != NULL ? 0 : -1; }

int tk_pq_probe_library(const char *soname, char *err, unsigned long err_len) {
    return tk_pq_probe(soname, err, err_len);
}

// The forwarders. `READY` loads libpq at the first call and says whether its table is filled.
#define READY (tk_pq_get(NULL, 0) != NULL)

int PQbackendPID(const PGconn *conn) { return READY ? tk_pq_table.PQbackendPID(conn) : 0; }
void PQclear(PGresult *res) {
    if (READY) tk_pq_table.PQclear(res);
}
char *PQcmdTuples(PGresult *res) { return READY ? tk_pq_table.PQcmdTuples(res) : NULL; }
PGconn *PQconnectdb(const char *conninfo) { return READY ? tk_pq_table.PQconnectdb(conninfo) : NULL; }
void PQconninfoFree(PQconninfoOption *options) {
    if (READY) tk_pq_table.PQconninfoFree(options);
}
PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg) {
    if (errmsg != NULL) *errmsg = NULL;
    return READY ? tk_pq_table.PQconninfoParse(conninfo, errmsg) : NULL;
}
int PQconsumeInput(PGconn *conn) { return READY ? tk_pq_table.PQconsumeInput(conn) : 0; }
char *PQerrorMessage(const PGconn *conn) { return READY ? tk_pq_table.PQerrorMessage(conn) : (char *)"libpq not loaded"; }
PGresult *PQexec(PGconn *conn, const char *query) { return READY ? tk_pq_table.PQexec(conn, query) : NULL; }
PGresult *PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
                       const char *const *paramValues, const int *paramLengths, const int *paramFormats,
                       int resultFormat) {
    return READY ? tk_pq_table.PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats,
                                      resultFormat)
                 : NULL;
}
PGresult *PQexecPrepared(PGconn *conn, const char *stmtName, int nParams, const char *const *paramValues,
                         const int *paramLengths, const int *paramFormats, int resultFormat) {
    return READY ? tk_pq_table.PQexecPrepared(conn, stmtName, nParams, paramValues, paramLengths, paramFormats,
                                        resultFormat)
                 : NULL;
}
void PQfinish(PGconn *conn) {
    if (READY) tk_pq_table.PQfinish(conn);
}
void PQfreemem(void *ptr) {
    if (READY) tk_pq_table.PQfreemem(ptr);
}
Oid PQftype(const PGresult *res, int field_num) { return READY ? tk_pq_table.PQftype(res, field_num) : 0; }
int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    return READY ? tk_pq_table.PQgetisnull(res, tup_num, field_num) : 1;
}
int PQgetlength(const PGresult *res, int tup_num, int field_num) {
    return READY ? tk_pq_table.PQgetlength(res, tup_num, field_num) : 0;
}
PGresult *PQgetResult(PGconn *conn) { return READY ? tk_pq_table.PQgetResult(conn) : NULL; }
char *PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return READY ? tk_pq_table.PQgetvalue(res, tup_num, field_num) : NULL;
}
PGnotify *PQnotifies(PGconn *conn) { return READY ? tk_pq_table.PQnotifies(conn) : NULL; }
int PQntuples(const PGresult *res) { return READY ? tk_pq_table.PQntuples(res) : 0; }
PGresult *PQprepare(PGconn *conn, const char *stmtName, const char *query, int nParams, const Oid *paramTypes) {
    return READY ? tk_pq_table.PQprepare(conn, stmtName, query, nParams, paramTypes) : NULL;
}
int PQputCopyData(PGconn *conn, const char *buffer, int nbytes) {
    return READY ? tk_pq_table.PQputCopyData(conn, buffer, nbytes) : -1;
}
int PQputCopyEnd(PGconn *conn, const char *errormsg) { return READY ? tk_pq_table.PQputCopyEnd(conn, errormsg) : -1; }
void PQreset(PGconn *conn) {
    if (READY) tk_pq_table.PQreset(conn);
}
char *PQresultErrorField(const PGresult *res, int fieldcode) {
    return READY ? tk_pq_table.PQresultErrorField(res, fieldcode) : NULL;
}
char *PQresultErrorMessage(const PGresult *res) {
    return READY ? tk_pq_table.PQresultErrorMessage(res) : (char *)"libpq not loaded";
}
ExecStatusType PQresultStatus(const PGresult *res) { return READY ? tk_pq_table.PQresultStatus(res) : PGRES_FATAL_ERROR; }
int PQsetClientEncoding(PGconn *conn, const char *encoding) {
    return READY ? tk_pq_table.PQsetClientEncoding(conn, encoding) : -1;
}
PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return READY ? tk_pq_table.PQsetNoticeProcessor(conn, proc, arg) : NULL;
}
int PQsocket(const PGconn *conn) { return READY ? tk_pq_table.PQsocket(conn) : -1; }
ConnStatusType PQstatus(const PGconn *conn) { return READY ? tk_pq_table.PQstatus(conn) : CONNECTION_BAD; }
PGTransactionStatusType PQtransactionStatus(const PGconn *conn) {
    return READY ? tk_pq_table.PQtransactionStatus(conn) : PQTRANS_UNKNOWN;
}
