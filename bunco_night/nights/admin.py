"""Admin pages for repairs."""

from django.contrib import admin

from .models import Attendance, Night, Payment, Round, Seat, Table


@admin.register(Night)
class NightAdmin(admin.ModelAdmin):
    list_display = ["group", "date", "place", "status", "sets"]
    list_filter = ["group", "status"]


@admin.register(Attendance)
class AttendanceAdmin(admin.ModelAdmin):
    list_display = ["night", "player", "status", "substitute"]
    list_filter = ["status"]


@admin.register(Payment)
class PaymentAdmin(admin.ModelAdmin):
    list_display = ["attendance", "amount_cents", "created"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["night", "number", "seats", "active"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["night", "number", "set_number", "mark", "status"]
    list_filter = ["status"]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "number", "player", "ghost_for", "won", "buncos"]
    list_select_related = ["round", "table", "player"]
