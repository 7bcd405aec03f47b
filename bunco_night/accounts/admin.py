from django.contrib import admin

from .models import Invitation


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["group", "email", "created", "expires", "accepted_by"]
    exclude = ["token"]
